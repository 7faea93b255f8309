import CHDF5
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The value of an HDF5 attribute, as this toolkit writes and reads them.
public enum HDF5AttributeValue: Sendable, Equatable, Codable {
    /// A scalar variable-length UTF-8 string.
    case string(String)
    /// A 1-D array of variable-length UTF-8 strings.
    case strings([String])
    /// A scalar 64-bit integer (written as `H5T_STD_I64LE`; read from any integer type).
    case int(Int64)
    /// A 1-D array of integers.
    case ints([Int64])
    /// A scalar double (read from any float type).
    case double(Double)
    /// A 1-D array of doubles.
    case doubles([Double])

    /// The value as text when it is a string (a one-element array counts too).
    public var stringValue: String? {
        switch self {
        case .string(let text): text
        case .strings(let texts) where texts.count == 1: texts[0]
        default: nil
        }
    }

    /// The value as a number when it is a numeric scalar or one-element array.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        case .doubles(let values) where values.count == 1: values[0]
        case .ints(let values) where values.count == 1: Double(values[0])
        default: nil
        }
    }
}

extension HDF5Object {
    /// Writes (or replaces) an attribute on this object.
    public func setAttribute(_ name: String, _ value: HDF5AttributeValue) throws(HDF5Error) {
        let what = "write attribute \(name) of \(path)"
        if H5Aexists(id, name) > 0 { try HDF5Library.check(H5Adelete(id, name), what) }
        switch value {
        case .string(let text):
            try writeStrings(name, [text], scalar: true, what)
        case .strings(let texts):
            try writeStrings(name, texts, scalar: false, what)
        case .int(let number):
            try writeNumbers(name, [number], scalar: true, type: .int64, what)
        case .ints(let numbers):
            try writeNumbers(name, numbers, scalar: false, type: .int64, what)
        case .double(let number):
            try writeNumbers(name, [number], scalar: true, type: .float64, what)
        case .doubles(let numbers):
            try writeNumbers(name, numbers, scalar: false, type: .float64, what)
        }
    }

    private func writeNumbers<T>(_ name: String, _ values: [T], scalar: Bool, type: HDF5ElementType,
                                 _ what: String) throws(HDF5Error) {
        let space = try HDF5Dataspace(dimensions: scalar ? [] : [UInt64(values.count)])
        let attribute = try HDF5Library.check(H5Acreate2(id, name, type.fileType, space.id, bb_H5P_DEFAULT(),
                                                         bb_H5P_DEFAULT()), what)
        defer { H5Aclose(attribute) }
        let status = values.withUnsafeBytes { H5Awrite(attribute, type.nativeType, $0.baseAddress) }
        try HDF5Library.check(status, what)
    }

    private func writeStrings(_ name: String, _ values: [String], scalar: Bool, _ what: String) throws(HDF5Error) {
        let type = try HDF5StringType()
        let space = try HDF5Dataspace(dimensions: scalar ? [] : [UInt64(values.count)])
        let attribute = try HDF5Library.check(H5Acreate2(id, name, type.id, space.id, bb_H5P_DEFAULT(),
                                                         bb_H5P_DEFAULT()), what)
        defer { H5Aclose(attribute) }
        let cStrings = values.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let pointers = cStrings.map { UnsafePointer<CChar>($0) }
        let status = pointers.withUnsafeBytes { H5Awrite(attribute, type.id, $0.baseAddress) }
        try HDF5Library.check(status, what)
    }

    /// The names of this object's attributes, in the order of their names.
    ///
    /// One pass of `H5Aiterate2` over the attributes libhdf5 finds: asking for each name by its index
    /// (`H5Aget_name_by_idx`) made libhdf5 build the table of all of them again for every name, and trusted the
    /// object's attribute count, which a corrupt file can set to billions. Names are gathered until the end or
    /// until libhdf5 cannot read the next one; what was gathered is returned (a corrupt object's readable
    /// attributes still count), and the object's header itself failing to read is an error.
    public func attributeNames() throws(HDF5Error) -> [String] {
        var info = H5O_info_t()
        try HDF5Library.check(H5Oget_info2(id, &info, UInt32(H5O_INFO_NUM_ATTRS)), "list attributes of \(path)")
        guard info.num_attrs > 0 else { return [] }
        let names = NameList()
        var position: hsize_t = 0
        withExtendedLifetime(names) {
            _ = H5Aiterate2(id, H5_INDEX_NAME, H5_ITER_INC, &position, { _, name, _, context in
                guard let name, let context else { return -1 }
                Unmanaged<NameList>.fromOpaque(context).takeUnretainedValue().names.append(String(cString: name))
                return 0
            }, Unmanaged.passUnretained(names).toOpaque())
        }
        return names.names
    }

    /// Reads an attribute: strings as `.string`/`.strings`, integers as `.int`/`.ints`, floats as
    /// `.double`/`.doubles` (scalar when the dataspace is scalar or holds one element).
    public func attribute(_ name: String) throws(HDF5Error) -> HDF5AttributeValue {
        let what = "read attribute \(name) of \(path)"
        let attribute = try HDF5Library.check(H5Aopen(id, name, bb_H5P_DEFAULT()), what)
        defer { H5Aclose(attribute) }
        let type = try HDF5Library.check(H5Aget_type(attribute), what)
        defer { H5Tclose(type) }
        let space = HDF5Dataspace(adopting: H5Aget_space(attribute), path: path)
        let dims = space.dimensions
        let count = try space.elementCount("\(path)@\(name)", type: type, in: attribute)
        let scalar = dims.isEmpty
        switch H5Tget_class(type) {
        case H5T_STRING:
            let values = try HDF5StringReader.read(count: count, fileType: type, what: "\(path)@\(name)") {
                H5Aread(attribute, $0, $1)
            }
            return scalar ? .string(values.first ?? "") : .strings(values)
        case H5T_INTEGER:
            var values = [Int64](repeating: 0, count: count)
            let status = values.withUnsafeMutableBytes { H5Aread(attribute, bb_H5T_NATIVE_INT64(), $0.baseAddress!) }
            try HDF5Library.check(status, what)
            return scalar ? .int(values.first ?? 0) : .ints(values)
        case H5T_FLOAT:
            var values = [Double](repeating: 0, count: count)
            let status = values.withUnsafeMutableBytes { H5Aread(attribute, bb_H5T_NATIVE_DOUBLE(), $0.baseAddress!) }
            try HDF5Library.check(status, what)
            return scalar ? .double(values.first ?? 0) : .doubles(values)
        default:
            throw HDF5Error(what, detail: "unsupported attribute type")
        }
    }
}

/// The names an attribute iteration gathers (passed to libhdf5's callback as its context).
private final class NameList {
    var names: [String] = []
}
