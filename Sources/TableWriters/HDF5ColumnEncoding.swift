import HDF5
import Tables

/// How a column of each kind is stored in HDF5 so that R (`rhdf5::h5read`, hdf5r) and Python read back the values,
/// types and missing values that `read.csv` and pandas read from the CSV table (conventions §2):
///
/// | kind | HDF5 type | missing | attributes R and the Python reader use |
/// | --- | --- | --- | --- |
/// | int32 | int32 | −2³¹ | `missing_value`, `rhdf5-NA.OK` (rhdf5 reads −2³¹ as `NA` without a message) |
/// | int64 | float64 | NaN | `missing_value` (rhdf5 turns int64 above 2³¹ into `NA`; float64 holds every integer up to 2⁵³) |
/// | float64, float32 | the same | NaN | |
/// | bool | int8 0/1 | −128 | `storage.mode = "logical"` (rhdf5 reads logical, −128 as `NA`), `logical`, `missing_value` |
/// | string, timestamps | UTF-8 string | `NA` | `as.na` (rhdf5 reads `"NA"` as `NA`), `missing_value` |
///
/// Every column also has `kind` (the table model's type, which the Python reader restores) and `unit`. A string
/// column of a table that has no rows at all is stored as fixed-length strings: hdf5r cannot read an empty
/// variable-length string dataset.
struct HDF5ColumnEncoding {
    /// The stored element type.
    let elementType: HDF5ElementType
    /// The text of a missing string.
    let missingText: String

    /// The text a missing string value is stored as.
    static let missingString = "NA"

    init(_ column: Column, tableIsEmpty: Bool = false) {
        missingText = HDF5ColumnEncoding.missingString
        switch column.values {
        case .int32: elementType = .int32
        case .int64, .float64: elementType = .float64
        case .float32: elementType = .float32
        case .bool: elementType = .int8
        case .string(let values):
            if let width = column.fixedWidth {
                let longest = values.reduce(0) { max($0, ($1 ?? HDF5ColumnEncoding.missingString).utf8.count) }
                elementType = .fixedString(width: max(width, longest, HDF5ColumnEncoding.missingString.utf8.count))
            } else {
                elementType = tableIsEmpty ? .fixedString(width: 1) : .string
            }
        case .timestamp, .localTimestamp:
            // A timestamp column's fixed width is the caller's bound on its spelled values (checked as they are
            // written), not measured here: spelling every value twice would cost more than it saves.
            if let width = column.fixedWidth {
                elementType = .fixedString(width: max(width, HDF5ColumnEncoding.missingString.utf8.count))
            } else {
                elementType = tableIsEmpty ? .fixedString(width: 1) : .string
            }
        }
    }

    /// The fill value of the column's dataset: for fixed-length strings, the first row's value (a per-row source
    /// file then needs no stored chunk at all while it repeats); HDF5's default of zeros for every other type.
    func fillValue(_ column: Column) -> [UInt8]? {
        guard case .fixedString = elementType else { return nil }
        let first: String??
        switch column.values {
        case .string(let values): first = values.first
        case .timestamp(let values): first = values.first.map(CellFormatting.timestamp)
        case .localTimestamp(let values): first = values.first.map(CellFormatting.localTimestamp)
        default: first = nil
        }
        guard let first else { return nil }
        let text = first ?? missingText
        guard text.utf8.count <= elementType.elementSize else { return nil }
        return Array(text.utf8) + [UInt8](repeating: 0, count: elementType.elementSize - text.utf8.count)
    }

    /// Writes the attributes that say how to read the column back.
    func describe(_ column: Column, on dataset: HDF5Dataset) throws(HDF5Error) {
        try dataset.setAttribute("kind", .string(column.values.kind))
        try dataset.setAttribute("unit", .string(column.unit))
        if let description = column.description { try dataset.setAttribute("description", .string(description)) }
        switch column.values {
        case .int32:
            try dataset.setAttribute("missing_value", .int(Int64(Int32.min)))
            try dataset.setAttribute("rhdf5-NA.OK", .int(1))
        case .bool:
            try dataset.setAttribute("storage.mode", .string("logical"))
            try dataset.setAttribute("logical", .int(1))
            try dataset.setAttribute("missing_value", .int(-128))
        case .string, .timestamp, .localTimestamp:
            try dataset.setAttribute("missing_value", .string(missingText))
            try dataset.setAttribute("as.na", .int(1))
        case .int64, .float64, .float32:
            break
        }
    }

    /// Appends a batch of the column's values.
    static func append(_ values: ColumnValues, to column: HDF5ChunkAppender) throws(HDF5Error) {
        switch values {
        case .int32(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .int64(let v):
            let wide = v.map { $0 == .min ? Double.nan : Double($0) }
            try wide.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .float64(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .float32(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .bool(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .string(let v): try column.append(v)
        case .timestamp(let v): try column.append(v.map { CellFormatting.timestamp($0) })
        case .localTimestamp(let v): try column.append(v.map { CellFormatting.localTimestamp($0) })
        }
    }
}
