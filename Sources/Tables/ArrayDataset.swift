/// A naturally N-dimensional signal (samples × channels, events × objects) written beside the tables: in HDF5 a
/// dataset under `/arrays/`, time first, with `dimension_names` and `unit` attributes (conventions §2). CSV
/// outputs have no place for it and skip it (the same values are in the tables).
public struct ArrayDataset: Sendable, Equatable {
    /// The values, row-major.
    public enum Values: Sendable, Equatable {
        case uint8([UInt8])
        case int32([Int32])
        case float32([Float])

        var count: Int {
            switch self {
            case .uint8(let v): v.count
            case .int32(let v): v.count
            case .float32(let v): v.count
            }
        }
    }

    /// The path below `/arrays/`, e.g. `stimuli` or `file1/stimuli`.
    public var path: String
    public var dimensions: [Int]
    /// One name per dimension, e.g. `["event", "object"]`.
    public var dimensionNames: [String]
    public var unit: String
    public var description: String?
    public var values: Values

    /// Creates an array; `dimensions` must multiply to the number of values.
    public init?(path: String, dimensions: [Int], dimensionNames: [String], unit: String = "",
                 description: String? = nil, values: Values) {
        guard dimensions.count == dimensionNames.count, !dimensions.isEmpty,
              dimensions.reduce(1, *) == values.count else { return nil }
        self.path = path
        self.dimensions = dimensions
        self.dimensionNames = dimensionNames
        self.unit = unit
        self.description = description
        self.values = values
    }
}
