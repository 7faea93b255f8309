import CHDF5
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The class of values an HDF5 dataset or attribute stores (`H5T_INTEGER`, `H5T_FLOAT`, `H5T_STRING`, …).
public enum HDF5StoredClass: Sendable, Equatable {
    case integer, float, string, other

    init(typeOf id: hid_t, get: (hid_t) -> hid_t) {
        let type = get(id)
        defer { if type >= 0 { H5Tclose(type) } }
        switch H5Tget_class(type) {
        case H5T_INTEGER: self = .integer
        case H5T_FLOAT: self = .float
        case H5T_STRING: self = .string
        default: self = .other
        }
    }
}

/// Reads string values of either fixed or variable length, from a dataset or an attribute.
enum HDF5StringReader {
    static func read(count: Int, fileType: hid_t, what: String,
                     _ readInto: (hid_t, UnsafeMutableRawPointer) -> herr_t) throws(HDF5Error) -> [String] {
        guard count > 0 else { return [] }
        guard H5Tget_class(fileType) == H5T_STRING else {
            throw HDF5Error("read \(what) as text", detail: "it does not hold strings")
        }
        if H5Tis_variable_str(fileType) > 0 {
            let memoryType = try HDF5StringType()
            var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
            let status = pointers.withUnsafeMutableBytes { readInto(memoryType.id, $0.baseAddress!) }
            try HDF5Library.check(status, "read \(what)")
            defer {
                for pointer in pointers { free(pointer) }
            }
            return pointers.map { $0.map { String(cString: $0) } ?? "" }
        }
        let size = H5Tget_size(fileType)
        let memoryType = try HDF5Library.check(H5Tcopy(fileType), "copy the type of \(what)")
        defer { H5Tclose(memoryType) }
        var bytes = [UInt8](repeating: 0, count: size * count)
        let status = bytes.withUnsafeMutableBytes { readInto(memoryType, $0.baseAddress!) }
        try HDF5Library.check(status, "read \(what)")
        return (0..<count).map { index in
            let slice = bytes[(index * size)..<((index + 1) * size)]
            let end = slice.firstIndex(of: 0) ?? slice.endIndex
            return String(decoding: slice[slice.startIndex..<end], as: UTF8.self)
                .trimmingTrailingSpaces()
        }
    }
}

extension String {
    /// Fixed-length HDF5 strings may be space padded (`H5T_STR_SPACEPAD`).
    fileprivate func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}
