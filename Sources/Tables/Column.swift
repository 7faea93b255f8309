/// The values of one column, stored densely with a per-type missing-value sentinel.
///
/// A column's kind never depends on its values, so a column has the same type in every output. Missing values are
/// held as NaN for floats, the type's minimum for integers, −128 for booleans and `nil` for strings; each writer
/// spells them its own way (`NA` in CSV; in HDF5 as `TableWriters.HDF5ColumnEncoding` says).
public enum ColumnValues: Sendable, Equatable {
    /// 32-bit integers; missing = `Int32.min`.
    case int32([Int32])
    /// 64-bit integers (values that may exceed int32: epoch milliseconds, byte offsets); missing = `Int64.min`.
    /// Stored as float64 in HDF5 (exact up to 2⁵³), since R has no 64-bit integers.
    case int64([Int64])
    /// 64-bit floats; missing = NaN.
    case float64([Double])
    /// 32-bit floats, for bulky signals; missing = NaN.
    case float32([Float])
    /// Booleans as 0/1; missing = −128.
    case bool([Int8])
    /// UTF-8 text; missing = `nil`.
    case string([String?])
    /// Absolute UTC times in seconds since 1970-01-01T00:00:00Z; missing = NaN. Written as ISO 8601 with `Z`.
    case timestamp([Double])
    /// Wall-clock times of unknown zone, as seconds since 1970-01-01T00:00:00 on that clock; missing = NaN.
    /// Written as ISO 8601 without an offset (the column name should end in `_local`).
    case localTimestamp([Double])

    /// The number of rows.
    public var count: Int {
        switch self {
        case .int32(let v): v.count
        case .int64(let v): v.count
        case .float64(let v): v.count
        case .float32(let v): v.count
        case .bool(let v): v.count
        case .string(let v): v.count
        case .timestamp(let v): v.count
        case .localTimestamp(let v): v.count
        }
    }

    /// The type name used in messages and the HDF5 `kind` attribute.
    public var kind: String {
        switch self {
        case .int32: "int32"
        case .int64: "int64"
        case .float64: "float64"
        case .float32: "float32"
        case .bool: "bool"
        case .string: "string"
        case .timestamp: "timestamp"
        case .localTimestamp: "timestamp_local"
        }
    }

    /// An empty column of the same type.
    public var emptyOfSameKind: ColumnValues {
        switch self {
        case .int32: .int32([])
        case .int64: .int64([])
        case .float64: .float64([])
        case .float32: .float32([])
        case .bool: .bool([])
        case .string: .string([])
        case .timestamp: .timestamp([])
        case .localTimestamp: .localTimestamp([])
        }
    }

    /// Appends the rows of another column of the same type.
    public mutating func append(contentsOf other: ColumnValues) {
        switch (self, other) {
        case (.int32(var a), .int32(let b)): a += b; self = .int32(a)
        case (.int64(var a), .int64(let b)): a += b; self = .int64(a)
        case (.float64(var a), .float64(let b)): a += b; self = .float64(a)
        case (.float32(var a), .float32(let b)): a += b; self = .float32(a)
        case (.bool(var a), .bool(let b)): a += b; self = .bool(a)
        case (.string(var a), .string(let b)): a += b; self = .string(a)
        case (.timestamp(var a), .timestamp(let b)): a += b; self = .timestamp(a)
        case (.localTimestamp(var a), .localTimestamp(let b)): a += b; self = .localTimestamp(a)
        default: preconditionFailure("cannot append a \(other.kind) column to a \(kind) column")
        }
    }
}

/// One named column of a table, with its unit.
public struct Column: Sendable, Equatable {
    /// The `snake_case` name, carrying the unit as a suffix where one applies (`t_s`, `t3_uv`).
    public var name: String
    /// The unit, written as the HDF5 `unit` attribute (`""` where none applies).
    public var unit: String
    /// A description where the name is not obvious (HDF5 attribute `description`).
    public var description: String?
    /// The values.
    public var values: ColumnValues
    /// For a string column of a bulky table: store it in HDF5 as fixed-length UTF-8 strings of this many bytes
    /// (at least), which avoids HDF5's per-string heap objects and compresses repeats to almost nothing. CSV is
    /// unaffected. Used for `source_file` in per-sample tables, and for the bounded columns of ilog-parse's
    /// per-event tables (``Table/storingFixedWidth(_:)``).
    public var fixedWidth: Int?

    public init(_ name: String, unit: String = "", description: String? = nil, fixedWidth: Int? = nil,
                _ values: ColumnValues) {
        self.name = name
        self.unit = unit
        self.description = description
        self.fixedWidth = fixedWidth
        self.values = values
    }
}

extension Column {
    /// A string column; `nil` is missing.
    public static func string(_ name: String, _ values: [String?], unit: String = "",
                              description: String? = nil) -> Column {
        Column(name, unit: unit, description: description, .string(values))
    }

    /// A 64-bit float column; `nil` and NaN are missing.
    public static func float(_ name: String, _ values: [Double?], unit: String = "",
                             description: String? = nil) -> Column {
        Column(name, unit: unit, description: description, .float64(values.map { $0 ?? .nan }))
    }

    /// A 32-bit integer column; `nil` is missing. Values must fit in `Int32` (above its minimum).
    public static func int32(_ name: String, _ values: [Int?], unit: String = "",
                             description: String? = nil) -> Column {
        Column(name, unit: unit, description: description, .int32(values.map { $0.map { Int32($0) } ?? .min }))
    }

    /// A 64-bit integer column; `nil` is missing.
    public static func int64(_ name: String, _ values: [Int?], unit: String = "",
                             description: String? = nil) -> Column {
        Column(name, unit: unit, description: description, .int64(values.map { $0.map { Int64($0) } ?? .min }))
    }

    /// A boolean column; `nil` is missing.
    public static func bool(_ name: String, _ values: [Bool?], description: String? = nil) -> Column {
        Column(name, unit: "", description: description,
               .bool(values.map { value in value.map { $0 ? 1 : 0 } ?? -128 }))
    }

    /// A UTC timestamp column from seconds since 1970; `nil` is missing.
    public static func timestamp(_ name: String, _ secondsSince1970: [Double?], description: String? = nil) -> Column {
        Column(name, unit: "UTC", description: description, .timestamp(secondsSince1970.map { $0 ?? .nan }))
    }

    /// A wall-clock timestamp column of unknown zone; `nil` is missing.
    public static func localTimestamp(_ name: String, _ secondsSince1970: [Double?],
                                      description: String? = nil) -> Column {
        Column(name, unit: "local time, zone unknown", description: description,
               .localTimestamp(secondsSince1970.map { $0 ?? .nan }))
    }
}
