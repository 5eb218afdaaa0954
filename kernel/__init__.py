"""The kernel: ABI, syscall table types, dispatcher, service registry, clock and composition root."""
