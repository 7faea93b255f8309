import CHDF5

/// How a new dataset is laid out on disk.
public struct HDF5StorageOptions: Sendable, Equatable {
    /// Rows per chunk.
    public var chunkRows: Int
    /// Deflate level 0…9 (0: no deflate filter).
    public var deflateLevel: Int
    /// Whether to add the shuffle filter before deflate.
    public var shuffle: Bool
    /// The fill value: one element's bytes as stored in the file (`H5Pset_fill_value`), which readers get for
    /// rows of chunks never written; `nil` keeps HDF5's default of all zero bytes. Ignored for
    /// variable-length strings.
    public var fillValue: [UInt8]?

    public init(chunkRows: Int, deflateLevel: Int, shuffle: Bool, fillValue: [UInt8]? = nil) {
        self.chunkRows = max(1, chunkRows)
        self.deflateLevel = min(9, max(0, deflateLevel))
        self.shuffle = shuffle
        self.fillValue = fillValue
    }
}

/// An open HDF5 dataset.
public final class HDF5Dataset: HDF5Object {
    init(id: hid_t, path: String) {
        super.init(id: id, path: path, close: H5Dclose)
    }

    /// Creates an empty, extendible, chunked 1-D dataset; rows are added with the `append` functions.
    public static func createExtendible(in location: HDF5Location, name: String, type: HDF5ElementType,
                                        storage: HDF5StorageOptions) throws(HDF5Error) -> HDF5Dataset {
        let datasetPath = HDF5Location.join(location.path, name)
        let space = try HDF5Dataspace(dimensions: [0], maximum: [UInt64(bb_H5S_UNLIMITED())])
        let dcpl = try HDF5PropertyList(bb_H5P_DATASET_CREATE(), "dataset creation")
        try HDF5Library.check(H5Pset_obj_track_times(dcpl.id, false), "turn off time tracking for \(datasetPath)")
        var chunk = [hsize_t(storage.chunkRows)]
        try HDF5Library.check(H5Pset_chunk(dcpl.id, 1, &chunk), "set chunking for \(datasetPath)")
        if storage.deflateLevel > 0 && type != .string {
            if storage.shuffle {
                try HDF5Library.check(H5Pset_shuffle(dcpl.id), "set the shuffle filter for \(datasetPath)")
            }
            try HDF5Library.check(H5Pset_deflate(dcpl.id, UInt32(storage.deflateLevel)),
                                  "set deflate for \(datasetPath)")
        }
        let stringType: HDF5StringType?
        switch type {
        case .string: stringType = try HDF5StringType()
        case .fixedString(let width): stringType = try HDF5StringType(fixedWidth: width)
        default: stringType = nil
        }
        let fileType = stringType?.id ?? type.fileType
        // The fill value stays defined (HDF5's default fill time writes it only where it is set): chunks that
        // ``HDF5ChunkAppender`` leaves unwritten, because every row equals it, read back as the fill value.
        if type != .string, let fill = storage.fillValue {
            guard fill.count == type.elementSize else {
                throw HDF5Error("create dataset \(datasetPath)",
                                detail: "a fill value of \(fill.count) bytes for elements of \(type.elementSize)")
            }
            try HDF5Library.check(fill.withUnsafeBytes { H5Pset_fill_value(dcpl.id, fileType, $0.baseAddress) },
                                  "set the fill value of \(datasetPath)")
        }
        let dataset = try HDF5Library.check(
            H5Dcreate2(location.id, name, fileType, space.id, bb_H5P_DEFAULT(), dcpl.id, bb_H5P_DEFAULT()),
            "create dataset \(datasetPath)")
        return HDF5Dataset(id: dataset, path: datasetPath)
    }

    /// Creates a fixed-size N-dimensional numeric dataset and writes all of `values` (row-major), chunked along
    /// the first dimension and deflated at `deflateLevel` (shuffle on integers).
    public static func createArray<T>(in location: HDF5Location, name: String, type: HDF5ElementType,
                                      dimensions: [Int], values: [T], deflateLevel: Int) throws(HDF5Error) -> HDF5Dataset {
        let datasetPath = HDF5Location.join(location.path, name)
        guard !dimensions.isEmpty, dimensions.reduce(1, *) == values.count, type != .string else {
            throw HDF5Error("create dataset \(datasetPath)", detail: "dimensions do not match the values")
        }
        let space = try HDF5Dataspace(dimensions: dimensions.map { UInt64($0) })
        let dcpl = try HDF5PropertyList(bb_H5P_DATASET_CREATE(), "dataset creation")
        try HDF5Library.check(H5Pset_obj_track_times(dcpl.id, false), "turn off time tracking for \(datasetPath)")
        if values.count > 0 {
            let rowSize = max(1, dimensions.dropFirst().reduce(1, *))
            var chunk = dimensions.map { hsize_t(max(1, $0)) }
            chunk[0] = hsize_t(max(1, min(dimensions[0], max(1, (1 << 18) / rowSize))))
            try HDF5Library.check(H5Pset_chunk(dcpl.id, Int32(chunk.count), &chunk), "set chunking for \(datasetPath)")
            if deflateLevel > 0 {
                if type.isInteger { try HDF5Library.check(H5Pset_shuffle(dcpl.id), "set shuffle for \(datasetPath)") }
                try HDF5Library.check(H5Pset_deflate(dcpl.id, UInt32(min(9, deflateLevel))), "set deflate for \(datasetPath)")
            }
        }
        let dataset = try HDF5Library.check(
            H5Dcreate2(location.id, name, type.fileType, space.id, bb_H5P_DEFAULT(), dcpl.id, bb_H5P_DEFAULT()),
            "create dataset \(datasetPath)")
        let created = HDF5Dataset(id: dataset, path: datasetPath)
        if values.count > 0 {
            let status = values.withUnsafeBytes {
                H5Dwrite(dataset, type.nativeType, bb_H5S_ALL(), bb_H5S_ALL(), bb_H5P_DEFAULT(), $0.baseAddress)
            }
            try HDF5Library.check(status, "write \(datasetPath)")
        }
        return created
    }

    /// The current dimensions.
    public var dimensions: [UInt64] {
        let space = HDF5Dataspace(adopting: H5Dget_space(id), path: path)
        return space.dimensions
    }

    /// The number of elements (the product of the dimensions), refused with an error when a corrupt file claims
    /// more than can be read (over 2^31, or more than the file's size can hold: ``HDF5Dataspace``).
    public func elementCount() throws(HDF5Error) -> Int {
        let type = try HDF5Library.check(H5Dget_type(id), "get the type of \(path)")
        defer { H5Tclose(type) }
        return try HDF5Dataspace(adopting: H5Dget_space(id), path: path).elementCount(path, type: type, in: id)
    }

    // MARK: Appending

    /// Appends variable-length UTF-8 strings (``HDF5ChunkAppender`` appends every other kind).
    public func append(_ values: [String]) throws(HDF5Error) {
        try append(values, missing: "")
    }

    /// Appends strings to a 1-D extendible variable-length string dataset, `nil` written as `missing`.
    public func append(_ values: [String?], missing: String) throws(HDF5Error) {
        guard !values.isEmpty else { return }
        let type = try HDF5StringType()
        // One contiguous buffer of NUL-terminated strings (each string's UTF-8 copied in, with no array of its
        // own), and pointers into it.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.reduce(0) { $0 + ($1 ?? missing).utf8.count + 1 })
        var offsets: [Int] = []
        offsets.reserveCapacity(values.count)
        for value in values {
            offsets.append(bytes.count)
            bytes.append(contentsOf: (value ?? missing).utf8)
            bytes.append(0)
        }
        let status = bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { base + $0 }
            return pointers.withUnsafeBufferPointer { pointerBuffer in
                Result { () throws(HDF5Error) in
                    try appendRaw(values.count, memoryType: type.id, UnsafeRawPointer(pointerBuffer.baseAddress))
                }
            }
        }
        try status.get()
    }

    /// Sets the length of a 1-D extendible dataset.
    func setLength(_ rows: Int) throws(HDF5Error) {
        var size = [hsize_t(rows)]
        try HDF5Library.check(H5Dset_extent(id, &size), "extend \(path)")
    }

    /// Writes rows `start ..< start + count` of a 1-D dataset (within its length) from `data`, laid out as
    /// `memoryType`.
    func write(rows start: Int, count: Int, memoryType: hid_t, _ data: UnsafeRawPointer) throws(HDF5Error) {
        let fileSpace = try HDF5Library.check(H5Dget_space(id), "get the dataspace of \(path)")
        defer { H5Sclose(fileSpace) }
        var offset = [hsize_t(start)]
        var block = [hsize_t(count)]
        try HDF5Library.check(H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, &offset, nil, &block, nil),
                              "select rows of \(path)")
        let memorySpace = try HDF5Dataspace(dimensions: [UInt64(count)])
        // HDF5 allocates and zeroes a type-conversion buffer of `H5Pset_buffer`'s size on every write that
        // converts (variable-length strings): 1 MiB unless told otherwise, however few the rows. Sized to the
        // rows here (16 bytes is the larger side of a variable-length string's conversion), rounded up to a power
        // of two: HDF5 keeps freed blocks on a free list per size, so a few sizes keep its memory bounded. It still
        // makes the buffer at least one element, and converts in strips of its size when the rows need more.
        let transfer = try HDF5PropertyList(bb_H5P_DATASET_XFER(), "dataset transfer")
        let needed = max(1, count) * max(16, H5Tget_size(memoryType))
        let bufferSize = min(1 << 20, 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount))
        try HDF5Library.check(H5Pset_buffer(transfer.id, bufferSize, nil, nil), "size the conversion buffer of \(path)")
        try HDF5Library.check(H5Dwrite(id, memoryType, memorySpace.id, fileSpace, transfer.id, data),
                              "write \(count) rows to \(path)")
    }

    /// Stores one whole chunk of a 1-D dataset as it is (`H5Dwrite_chunk`): `bytes` are the chunk's elements in
    /// the file's layout, after every filter of the dataset. HDF5 neither converts, filters, caches nor fills it,
    /// which makes this the fastest way to write; the chunk must lie within the dataset's length.
    func writeChunk(startingAt row: Int, _ bytes: UnsafeRawBufferPointer) throws(HDF5Error) {
        guard let base = bytes.baseAddress else { return }
        var offset = [hsize_t(row)]
        try HDF5Library.check(H5Dwrite_chunk(id, bb_H5P_DEFAULT(), 0, &offset, bytes.count, base),
                              "write the chunk at row \(row) of \(path)")
    }

    /// Stores one whole chunk as it is, from an array (as the pointer version above).
    func writeChunk(startingAt row: Int, _ bytes: [UInt8]) throws(HDF5Error) {
        var offset = [hsize_t(row)]
        let status = bytes.withUnsafeBytes { H5Dwrite_chunk(id, bb_H5P_DEFAULT(), 0, &offset, $0.count, $0.baseAddress) }
        try HDF5Library.check(status, "write the chunk at row \(row) of \(path)")
    }

    /// Extends the dataset by `count` rows and writes them from `data`, laid out as `memoryType`.
    func appendRaw(_ count: Int, memoryType: hid_t, _ data: UnsafeRawPointer?) throws(HDF5Error) {
        guard count > 0, let data else { return }
        let start = Int(dimensions.first ?? 0)
        try setLength(start + count)
        try write(rows: start, count: count, memoryType: memoryType, data)
    }

    // MARK: Reading

    /// What kind of values the dataset stores.
    public var storedClass: HDF5StoredClass { HDF5StoredClass(typeOf: id, get: H5Dget_type) }

    /// Reads every element, converted by HDF5 to doubles (row-major for several dimensions).
    public func readDoubles() throws(HDF5Error) -> [Double] {
        var values = [Double](repeating: 0, count: try elementCount())
        guard !values.isEmpty else { return [] }
        let status = values.withUnsafeMutableBytes {
            H5Dread(id, bb_H5T_NATIVE_DOUBLE(), bb_H5S_ALL(), bb_H5S_ALL(), bb_H5P_DEFAULT(), $0.baseAddress)
        }
        try HDF5Library.check(status, "read \(path) as numbers")
        return values
    }

    /// Reads every element, converted by HDF5 to 64-bit integers.
    public func readInt64s() throws(HDF5Error) -> [Int64] {
        var values = [Int64](repeating: 0, count: try elementCount())
        guard !values.isEmpty else { return [] }
        let status = values.withUnsafeMutableBytes {
            H5Dread(id, bb_H5T_NATIVE_INT64(), bb_H5S_ALL(), bb_H5S_ALL(), bb_H5P_DEFAULT(), $0.baseAddress)
        }
        try HDF5Library.check(status, "read \(path) as integers")
        return values
    }

    /// Reads every element of a string dataset (fixed or variable length).
    public func readStrings() throws(HDF5Error) -> [String] {
        let type = try HDF5Library.check(H5Dget_type(id), "get the type of \(path)")
        defer { H5Tclose(type) }
        return try HDF5StringReader.read(count: try elementCount(), fileType: type, what: path) { memoryType, buffer in
            H5Dread(id, memoryType, bb_H5S_ALL(), bb_H5S_ALL(), bb_H5P_DEFAULT(), buffer)
        }
    }
}
