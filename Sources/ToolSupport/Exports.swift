// ToolSupport is the output side's front door: `OutputOptions.open` hands a tool a `TableOutput`, `ToolRunner` ends
// a run on a `TableOutputError` and builds the `Provenance`. A file that imports ToolSupport therefore sees
// TableWriters too, and so does every file of this module (ToolRunner.swift imports only Tables).
@_exported import TableWriters
