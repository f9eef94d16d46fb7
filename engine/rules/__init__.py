"""The load stage: rule files read with positions, resolved, checked and frozen.

``reader`` reads YAML with the file, line and column of every value; ``loader`` finds the rule
files, resolves ``extends:`` and runs the schema pass; ``checks`` and ``authoring`` are the
semantic checks; ``model`` is the frozen ``RuleSet`` with its compiled tables; ``cache`` keeps
checked files between runs. Nothing here knows about deals: the referee stands above it.
"""
