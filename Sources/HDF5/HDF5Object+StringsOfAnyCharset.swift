import CHDF5
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading text stored as ASCII as well as UTF-8: HDF5 converts no variable-length string between character
/// sets, so the memory type takes the stored one's (files of other programs, e.g. the MYND app, store ASCII).
extension HDF5Object {
    /// Like ``attribute(_:)``, but strings are read in whatever character set they were stored.
    public func attributeOfAnyCharset(_ name: String) throws(HDF5Error) -> HDF5AttributeValue {
        let what = "read attribute \(name) of \(path)"
        let attribute = try HDF5Library.check(H5Aopen(id, name, bb_H5P_DEFAULT()), what)
        defer { H5Aclose(attribute) }
        let type = try HDF5Library.check(H5Aget_type(attribute), what)
        defer { H5Tclose(type) }
        guard H5Tget_class(type) == H5T_STRING else { return try self.attribute(name) }
        let space = HDF5Dataspace(adopting: H5Aget_space(attribute), path: path)
        let dims = space.dimensions
        let count = try space.elementCount("\(path)@\(name)", type: type, in: attribute)
        let values = try HDF5AnyCharsetStrings.read(count: count, fileType: type, what: "\(path)@\(name)") {
            H5Aread(attribute, $0, $1)
        }
        return dims.isEmpty ? .string(values.first ?? "") : .strings(values)
    }
}

extension HDF5Dataset {
    /// Like ``readStrings()``, but in whatever character set the strings were stored.
    public func readStringsOfAnyCharset() throws(HDF5Error) -> [String] {
        let type = try HDF5Library.check(H5Dget_type(id), "get the type of \(path)")
        defer { H5Tclose(type) }
        return try HDF5AnyCharsetStrings.read(count: try elementCount(), fileType: type, what: path) { memoryType, buffer in
            H5Dread(id, memoryType, bb_H5S_ALL(), bb_H5S_ALL(), bb_H5P_DEFAULT(), buffer)
        }
    }
}

enum HDF5AnyCharsetStrings {
    static func read(count: Int, fileType: hid_t, what: String,
                     _ readInto: (hid_t, UnsafeMutableRawPointer) -> herr_t) throws(HDF5Error) -> [String] {
        guard H5Tis_variable_str(fileType) > 0 else {
            return try HDF5StringReader.read(count: count, fileType: fileType, what: what, readInto)
        }
        guard count > 0 else { return [] }
        let memoryType = try HDF5Library.check(H5Tcopy(bb_H5T_C_S1()), "copy the string type")
        defer { H5Tclose(memoryType) }
        try HDF5Library.check(H5Tset_size(memoryType, bb_H5T_VARIABLE()), "make a variable-length string type")
        try HDF5Library.check(H5Tset_cset(memoryType, H5Tget_cset(fileType)), "set the character set")
        var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
        let status = pointers.withUnsafeMutableBytes { readInto(memoryType, $0.baseAddress!) }
        try HDF5Library.check(status, "read \(what)")
        defer { for pointer in pointers { free(pointer) } }
        return pointers.map { $0.map { String(cString: $0) } ?? "" }
    }
}
