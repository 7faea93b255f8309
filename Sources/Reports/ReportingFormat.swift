import Tables

/// An ``InputFormat`` that draws a report (`--report PATH.html`): its plots and summaries of the run's inputs,
/// made from what was read (`parsed`) and the tables written (`output`). The runner (`ToolSupport.ToolRunner`)
/// writes the page after the tables, with the run's inputs, anomalies, tables and provenance
/// (``RunReport``).
///
/// A format that streams (``StreamingInputFormat``) hands most rows to the output while reading and does not
/// keep them; whatever its report needs must be gathered while reading, in bounded memory, into `Parsed`.
public protocol ReportingFormat: InputFormat {
    /// The format's part of the page.
    func report(_ parsed: [Parsed], output: FormatOutput) -> ReportPage
}
