import CHDF5

/// The element types this toolkit reads and writes, each mapped to one HDF5 type.
public enum HDF5ElementType: Sendable, Equatable {
    /// 8-bit signed integers (`H5T_NATIVE_INT8` in memory, `H5T_STD_I8LE` in the file).
    case int8
    /// 8-bit unsigned integers (`H5T_NATIVE_UINT8` / `H5T_STD_U8LE`).
    case uint8
    /// 32-bit signed integers (`H5T_NATIVE_INT32` / `H5T_STD_I32LE`).
    case int32
    /// 64-bit signed integers (`H5T_NATIVE_INT64` / `H5T_STD_I64LE`).
    case int64
    /// 32-bit floats (`H5T_NATIVE_FLOAT` / `H5T_IEEE_F32LE`).
    case float32
    /// 64-bit floats (`H5T_NATIVE_DOUBLE` / `H5T_IEEE_F64LE`).
    case float64
    /// Variable-length UTF-8 strings (`H5T_C_S1` with size `H5T_VARIABLE` and `H5T_CSET_UTF8`).
    case string
    /// Fixed-length UTF-8 strings of `width` bytes, NUL padded (`H5T_C_S1`, `H5T_STR_NULLPAD`, `H5T_CSET_UTF8`):
    /// for long columns of repeated text, which compress to almost nothing and need no global heap.
    case fixedString(width: Int)

    /// The memory type, owned by the library (not to be closed).
    var nativeType: hid_t {
        switch self {
        case .int8: bb_H5T_NATIVE_INT8()
        case .uint8: bb_H5T_NATIVE_UINT8()
        case .int32: bb_H5T_NATIVE_INT32()
        case .int64: bb_H5T_NATIVE_INT64()
        case .float32: bb_H5T_NATIVE_FLOAT()
        case .float64: bb_H5T_NATIVE_DOUBLE()
        case .string, .fixedString: bb_H5T_C_S1()
        }
    }

    /// The little-endian file type, owned by the library, for the numeric cases.
    var fileType: hid_t {
        switch self {
        case .int8: bb_H5T_STD_I8LE()
        case .uint8: bb_H5T_STD_U8LE()
        case .int32: bb_H5T_STD_I32LE()
        case .int64: bb_H5T_STD_I64LE()
        case .float32: bb_H5T_IEEE_F32LE()
        case .float64: bb_H5T_IEEE_F64LE()
        case .string, .fixedString: bb_H5T_C_S1()
        }
    }

    /// Bytes per element in memory and in the file (0 for variable-length strings, whose elements are pointers
    /// in memory and heap references in the file).
    public var elementSize: Int {
        switch self {
        case .int8, .uint8: 1
        case .int32, .float32: 4
        case .int64, .float64: 8
        case .fixedString(let width): max(1, width)
        case .string: 0
        }
    }

    /// Whether memory holds values exactly as the file stores them (fixed-width types on a little-endian
    /// machine), so that chunks can be written as they are.
    var memoryLayoutIsFileLayout: Bool {
        switch self {
        case .string: false
        case .fixedString: true
        default: H5Tequal(nativeType, fileType) > 0
        }
    }

    /// Whether values are integers (the shuffle filter helps those).
    public var isInteger: Bool { self == .int8 || self == .uint8 || self == .int32 || self == .int64 }
}

/// A variable-length UTF-8 string type, closed when released.
final class HDF5StringType: HDF5Object {
    /// A variable-length type, or a fixed-length NUL-padded one of `fixedWidth` bytes.
    init(fixedWidth: Int? = nil) throws(HDF5Error) {
        let type = try HDF5Library.check(H5Tcopy(bb_H5T_C_S1()), "copy the string type")
        if let fixedWidth {
            try HDF5Library.check(H5Tset_size(type, max(1, fixedWidth)), "make a fixed-length string type")
            try HDF5Library.check(H5Tset_strpad(type, H5T_STR_NULLPAD), "set NUL padding")
        } else {
            try HDF5Library.check(H5Tset_size(type, bb_H5T_VARIABLE()), "make a variable-length string type")
        }
        try HDF5Library.check(H5Tset_cset(type, H5T_CSET_UTF8), "set the UTF-8 character set")
        super.init(id: type, path: "", close: H5Tclose)
    }
}

/// A simple dataspace of the given dimensions (a scalar one for no dimensions).
final class HDF5Dataspace: HDF5Object {
    init(dimensions: [UInt64], maximum: [UInt64]? = nil) throws(HDF5Error) {
        let space: hid_t
        if dimensions.isEmpty {
            space = H5Screate(H5S_SCALAR)
        } else {
            var dims = dimensions.map { hsize_t($0) }
            if var maxDims = maximum?.map({ hsize_t($0) }) {
                space = H5Screate_simple(Int32(dims.count), &dims, &maxDims)
            } else {
                space = H5Screate_simple(Int32(dims.count), &dims, nil)
            }
        }
        super.init(id: try HDF5Library.check(space, "create a dataspace"), path: "", close: H5Sclose)
    }

    init(adopting id: hid_t, path: String) {
        super.init(id: id, path: path, close: H5Sclose)
    }

    /// The current dimensions.
    var dimensions: [UInt64] {
        let rank = Int(H5Sget_simple_extent_ndims(id))
        guard rank > 0 else { return [] }
        var dims = [hsize_t](repeating: 0, count: rank)
        _ = H5Sget_simple_extent_dims(id, &dims, nil)
        return dims.map { UInt64($0) }
    }

    /// The most elements a read takes (2^31: 16 GiB of doubles). A corrupt file can claim any extent; beyond this
    /// it is refused before anything is allocated.
    static let maximumElements: UInt64 = 1 << 31

    /// The number of elements (1 for a scalar), checked: a product that overflows or exceeds
    /// ``maximumElements`` is an error naming `what`, not a trap or an allocation of terabytes.
    func elementCount(_ what: String) throws(HDF5Error) -> Int {
        var product: UInt64 = 1
        for dimension in dimensions {
            let (next, overflow) = product.multipliedReportingOverflow(by: dimension)
            guard !overflow, next <= Self.maximumElements else {
                throw HDF5Error("read \(what)", detail: "its dataspace claims \(dimensions.map(String.init).joined(separator: " x ")) elements, more than \(Self.maximumElements) (a corrupt file?)")
            }
            product = next
        }
        return Int(product)
    }

    /// The most bytes a read takes for each byte of the file: deflate, the strongest filter of HDF5 files,
    /// compresses at most 1032:1, so elements beyond that are claimed by a corrupt header, not stored.
    static let maximumExpansion: UInt64 = 1100
    /// What any file may claim whatever its size (16 MiB): room for fill values and small files' rounding.
    static let minimumReadBytes: UInt64 = 16 << 20

    /// ``elementCount(_:)``, also checked against the file the elements are read from (`object`'s): elements of
    /// `type` (at least 8 bytes each, as they are read) may not need more than ``maximumExpansion`` times the
    /// file's size (at least ``minimumReadBytes``). A corrupt dimension in a small file so fails with an error
    /// naming `what` before anything is allocated, instead of asking for gigabytes.
    func elementCount(_ what: String, type: hid_t, in object: hid_t) throws(HDF5Error) -> Int {
        let count = try elementCount(what)
        guard let fileSize = Self.fileSize(of: object) else { return count }
        let elementSize = UInt64(max(8, H5Tget_size(type)))
        let (bytes, overflow) = UInt64(count).multipliedReportingOverflow(by: elementSize)
        let (expanded, over) = fileSize.multipliedReportingOverflow(by: Self.maximumExpansion)
        let limit = over ? UInt64.max : max(Self.minimumReadBytes, expanded)
        guard !overflow, bytes <= limit else {
            throw HDF5Error("read \(what)", detail: "its dataspace claims \(dimensions.map(String.init).joined(separator: " x ")) elements of \(elementSize) bytes, more than a file of \(fileSize) bytes can hold (a corrupt file?)")
        }
        return count
    }

    /// The size in bytes of the file an open object is in, or `nil` when HDF5 cannot tell.
    static func fileSize(of object: hid_t) -> UInt64? {
        let file = H5Iget_file_id(object)
        guard file >= 0 else { return nil }
        defer { H5Fclose(file) }
        var size: hsize_t = 0
        return H5Fget_filesize(file, &size) >= 0 ? UInt64(size) : nil
    }
}

/// A property list of one class (`H5P_FILE_CREATE`, `H5P_DATASET_CREATE`, …).
final class HDF5PropertyList: HDF5Object {
    init(_ propertyClass: hid_t, _ what: String) throws(HDF5Error) {
        super.init(id: try HDF5Library.check(H5Pcreate(propertyClass), "create a \(what) property list"),
                   path: "", close: H5Pclose)
    }
}
