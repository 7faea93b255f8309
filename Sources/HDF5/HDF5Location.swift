import CHDF5

/// What an entry of a group is.
public enum HDF5ObjectKind: Sendable, Equatable {
    case group, dataset, other
}

/// A file's root or a group: something that holds named groups and datasets.
public class HDF5Location: HDF5Object {
    /// Creates a child group with object time tracking off, so that re-runs give identical bytes, and link
    /// creation order tracked, so that readers that honour it (h5py, hdf5r) list its members in the order they
    /// were made (a table's columns in table order).
    public func createGroup(_ name: String) throws(HDF5Error) -> HDF5Group {
        let childPath = HDF5Location.join(path, name)
        let gcpl = try HDF5PropertyList(bb_H5P_GROUP_CREATE(), "group creation")
        try HDF5Library.check(H5Pset_obj_track_times(gcpl.id, false), "turn off time tracking for \(childPath)")
        try HDF5Library.check(H5Pset_link_creation_order(gcpl.id, HDF5Location.creationOrderFlags),
                              "track creation order in \(childPath)")
        let group = try HDF5Library.check(H5Gcreate2(id, name, bb_H5P_DEFAULT(), gcpl.id, bb_H5P_DEFAULT()),
                                          "create group \(childPath)")
        return HDF5Group(id: group, path: childPath)
    }

    /// Opens an existing child group.
    public func openGroup(_ name: String) throws(HDF5Error) -> HDF5Group {
        let childPath = HDF5Location.join(path, name)
        let group = try HDF5Library.check(H5Gopen2(id, name, bb_H5P_DEFAULT()), "open group \(childPath)")
        return HDF5Group(id: group, path: childPath)
    }

    /// Opens an existing child dataset.
    public func openDataset(_ name: String) throws(HDF5Error) -> HDF5Dataset {
        let childPath = HDF5Location.join(path, name)
        let dataset = try HDF5Library.check(H5Dopen2(id, name, bb_H5P_DEFAULT()), "open dataset \(childPath)")
        return HDF5Dataset(id: dataset, path: childPath)
    }

    /// Whether a direct child of this name exists.
    public func contains(_ name: String) -> Bool {
        H5Lexists(id, name, bb_H5P_DEFAULT()) > 0
    }

    /// The kind of a direct child, or `nil` if there is none.
    public func kind(of name: String) -> HDF5ObjectKind? {
        guard contains(name) else { return nil }
        var info = H5O_info_t()
        guard H5Oget_info_by_name2(id, name, &info, UInt32(H5O_INFO_BASIC), bb_H5P_DEFAULT()) >= 0 else { return nil }
        switch info.type {
        case H5O_TYPE_GROUP: return .group
        case H5O_TYPE_DATASET: return .dataset
        default: return .other
        }
    }

    /// The names of the direct children, in the order HDF5 lists them (by name).
    public func childNames() throws(HDF5Error) -> [String] {
        final class Names { var list: [String] = [] }
        let names = Names()
        let status = withExtendedLifetime(names) {
            H5Literate(id, H5_INDEX_NAME, H5_ITER_INC, nil, { _, name, _, data in
                guard let name, let data else { return 0 }
                Unmanaged<Names>.fromOpaque(data).takeUnretainedValue().list.append(String(cString: name))
                return 0
            }, Unmanaged.passUnretained(names).toOpaque())
        }
        try HDF5Library.check(status, "list the members of \(path)")
        return names.list
    }

    /// `H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED`: HDF5 lists members by creation order only when it is
    /// indexed too.
    static let creationOrderFlags = UInt32(H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED)

    static func join(_ parent: String, _ name: String) -> String {
        parent.hasSuffix("/") ? parent + name : parent + "/" + name
    }
}

/// An open HDF5 group.
public final class HDF5Group: HDF5Location {
    init(id: hid_t, path: String) {
        super.init(id: id, path: path, close: H5Gclose)
    }
}

/// An open HDF5 file; its root group is the file itself.
public final class HDF5File: HDF5Location {
    /// Bytes of chunk cache per open dataset of a file being written: none, since ``HDF5ChunkAppender`` stores
    /// whole chunks itself (`H5Dwrite_chunk`), already compressed where the dataset is.
    public static let chunkCacheBytes = 0

    /// Creates (truncating) a file whose root group records no times and tracks creation order, readable by HDF5 1.8 and 1.10.
    public static func create(path filePath: String) throws(HDF5Error) -> HDF5File {
        _ = HDF5Library.silenced
        let fcpl = try HDF5PropertyList(bb_H5P_FILE_CREATE(), "file creation")
        try HDF5Library.check(H5Pset_obj_track_times(fcpl.id, false), "turn off time tracking for \(filePath)")
        try HDF5Library.check(H5Pset_link_creation_order(fcpl.id, creationOrderFlags),
                              "track creation order in \(filePath)")
        let fapl = try HDF5PropertyList(bb_H5P_FILE_ACCESS(), "file access")
        try HDF5Library.check(H5Pset_libver_bounds(fapl.id, H5F_LIBVER_V18, H5F_LIBVER_V110),
                              "set library version bounds for \(filePath)")
        // No chunk cache: the 1 MB default per dataset adds up over many open columns, and a cached chunk's
        // buffer lingers in HDF5's free lists after it is written.
        try HDF5Library.check(H5Pset_cache(fapl.id, 0, 101, chunkCacheBytes, 1.0),
                              "set the chunk cache for \(filePath)")
        // A small metadata cache: written files are not read back while open.
        var metadata = H5AC_cache_config_t()
        metadata.version = 1  // H5AC__CURR_CACHE_CONFIG_VERSION
        try HDF5Library.check(H5Pget_mdc_config(fapl.id, &metadata), "read the metadata cache settings")
        metadata.set_initial_size = true
        metadata.initial_size = 1 << 20
        metadata.min_size = 1 << 20
        metadata.max_size = 4 << 20
        try HDF5Library.check(H5Pset_mdc_config(fapl.id, &metadata), "set the metadata cache for \(filePath)")
        let file = try HDF5Library.check(H5Fcreate(filePath, bb_H5F_ACC_TRUNC(), fcpl.id, fapl.id),
                                         "create file \(filePath)")
        return HDF5File(id: file, path: "/", fileName: filePath)
    }

    /// Opens an existing file read-only.
    public static func open(path filePath: String) throws(HDF5Error) -> HDF5File {
        _ = HDF5Library.silenced
        guard H5Fis_hdf5(filePath) > 0 else { throw HDF5Error("open \(filePath)", detail: "not an HDF5 file") }
        let file = try HDF5Library.check(H5Fopen(filePath, bb_H5F_ACC_RDONLY(), bb_H5P_DEFAULT()),
                                         "open file \(filePath)")
        return HDF5File(id: file, path: "/", fileName: filePath)
    }

    /// The path of the file on disk.
    public let fileName: String

    private init(id: hid_t, path: String, fileName: String) {
        self.fileName = fileName
        super.init(id: id, path: path, close: H5Fclose)
    }

    /// Writes everything buffered to disk.
    public func flush() throws(HDF5Error) {
        try HDF5Library.check(H5Fflush(id, H5F_SCOPE_GLOBAL), "flush \(fileName)")
    }
}
