/// A failed HDF5 library call, with what was being done and to which path.
public struct HDF5Error: Error, CustomStringConvertible, Sendable {
    /// What the wrapper was doing, e.g. `create dataset /samples/t3_uv`.
    public var operation: String
    /// The innermost message of the HDF5 error stack, where the library gave one.
    public var detail: String?

    public init(_ operation: String, detail: String? = nil) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String {
        detail.map { "HDF5: cannot \(operation): \($0)" } ?? "HDF5: cannot \(operation)"
    }
}
