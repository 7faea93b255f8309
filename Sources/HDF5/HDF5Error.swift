/// A failed HDF5 library call, with what was being done and to which path.
public struct HDF5Error: Error, CustomStringConvertible, Sendable {
    /// What the wrapper was doing, e.g. `create dataset /samples/t3_uv`.
    public var operation: String
    /// The innermost message of the HDF5 error stack, where the library gave one.
    public var detail: String?
    /// The system's error number behind the failure (`errno = 28` in a message of the stack: a full disk, a file
    /// too large, no permission), where there was one.
    public var systemError: Int32?

    public init(_ operation: String, detail: String? = nil, systemError: Int32? = nil) {
        self.operation = operation
        self.detail = detail
        self.systemError = systemError
    }

    /// One line (HDF5's messages may hold line ends, e.g. after a time stamp).
    public var description: String {
        let text = detail.map { "HDF5: cannot \(operation): \($0)" } ?? "HDF5: cannot \(operation)"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
