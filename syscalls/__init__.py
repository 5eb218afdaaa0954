"""The syscall table: typed requests, handlers, one module per family."""
