/// An error a tool reports in one line and turns into an exit code (conventions §3): what every format's reader
/// throws, so that the runner can name the input and end the run, or go on with `--keep-going`.
public protocol ReportableError: Error {
    /// The exit code the error ends the tool with.
    var exitCode: SysExit { get }
    /// One line naming the file, the line or byte offset, and what was expected.
    var message: String { get }
}
