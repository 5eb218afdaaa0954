"""Governance levers of a memory entry, at upstream arvis's path: they are declared with the entry they
govern (``arvis.memory.memory_long_entry``)."""

from arvis.memory.memory_long_entry import Governance as Governance
from arvis.memory.memory_long_entry import GovernanceEncryption as GovernanceEncryption
from arvis.memory.memory_long_entry import GovernancePrincipal as GovernancePrincipal
from arvis.memory.memory_long_entry import GovernanceRetention as GovernanceRetention
from arvis.memory.memory_long_entry import GovernanceSharing as GovernanceSharing
from arvis.memory.memory_long_entry import GovernanceVisibility as GovernanceVisibility
from arvis.memory.memory_long_entry import compose_strictest as compose_strictest
