"""The limits of what a call carries: its arguments, name and principal. The form a call is recorded in
under them is ``kernel.abi``'s (``record_args``, ``record_text``)."""

MAX_ARGS_BYTES = 65_536
MAX_VALUE_ARGS_BYTES = 16 * 1024 * 1024
"""The limit of a call that carries the values it stores (a LangGraph checkpoint, a store item): its
table row says so (``SyscallSpec.max_args_bytes``)."""
MAX_NAME_LENGTH = 128
MAX_PRINCIPAL_LENGTH = 256
