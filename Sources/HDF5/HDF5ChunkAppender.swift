import CHDF5

/// Appends rows to an extendible 1-D dataset in whole chunks.
///
/// Rows of a compressed dataset are staged in a buffer of one chunk and written when it is full, so every
/// write covers whole chunks at chunk boundaries: HDF5 then never reads a chunk back, never keeps one in its
/// chunk cache (files made by ``HDF5File/create(path:)`` have none), and compresses each chunk exactly once.
/// Memory is one chunk per column, whatever the number of rows. Uncompressed numbers are written straight
/// through (HDF5 writes any part of an uncompressed chunk in place); fixed-length strings are encoded in the
/// stage; variable-length strings are written through.
///
/// Call ``flush()`` once after the last rows; rows still staged when the appender goes away are lost.
public final class HDF5ChunkAppender {
    /// The dataset written to.
    public let dataset: HDF5Dataset
    /// The dataset's element type.
    public let type: HDF5ElementType
    /// Rows per chunk (the staging buffer's capacity).
    public let chunkRows: Int

    private let elementSize: Int
    private let stringType: HDF5StringType?
    private let memoryType: hid_t
    private let stage: UnsafeMutableRawBufferPointer
    private var staged = 0
    /// Whether numbers go through the stage (compressed datasets only).
    private let stagesNumbers: Bool

    /// Creates an empty extendible dataset (``HDF5Dataset/createExtendible(in:name:type:storage:)``) and its
    /// staging buffer.
    public init(in location: HDF5Location, name: String, type: HDF5ElementType,
                storage: HDF5StorageOptions) throws(HDF5Error) {
        dataset = try HDF5Dataset.createExtendible(in: location, name: name, type: type, storage: storage)
        self.type = type
        chunkRows = storage.chunkRows
        switch type {
        case .int8, .uint8: elementSize = 1
        case .int32, .float32: elementSize = 4
        case .int64, .float64: elementSize = 8
        case .fixedString(let width): elementSize = max(1, width)
        case .string: elementSize = 0
        }
        switch type {
        case .string: stringType = try HDF5StringType()
        case .fixedString(let width): stringType = try HDF5StringType(fixedWidth: width)
        default: stringType = nil
        }
        memoryType = stringType?.id ?? type.nativeType
        stagesNumbers = storage.deflateLevel > 0
        let stageRows: Int
        if case .fixedString = type { stageRows = chunkRows } else { stageRows = stagesNumbers ? chunkRows : 0 }
        stage = .allocate(byteCount: max(1, elementSize * stageRows), alignment: 16)
    }

    deinit { stage.deallocate() }

    /// Appends 8-bit integers to an `int8` dataset.
    public func append(_ values: UnsafeBufferPointer<Int8>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .int8)
    }
    /// Appends 32-bit integers to an `int32` dataset.
    public func append(_ values: UnsafeBufferPointer<Int32>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .int32)
    }
    /// Appends 64-bit integers to an `int64` dataset.
    public func append(_ values: UnsafeBufferPointer<Int64>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .int64)
    }
    /// Appends 32-bit floats to a `float32` dataset.
    public func append(_ values: UnsafeBufferPointer<Float>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .float32)
    }
    /// Appends 64-bit floats to a `float64` dataset.
    public func append(_ values: UnsafeBufferPointer<Double>) throws(HDF5Error) {
        try append(UnsafeRawBufferPointer(values), rows: values.count, as: .float64)
    }

    /// Appends strings, `nil` written as the empty string: to a variable-length dataset directly, to a
    /// fixed-length one NUL padded to its width (a longer value is an error, and nothing of this batch is
    /// written).
    public func append(_ values: [String?]) throws(HDF5Error) {
        guard case .fixedString(let width) = type else {
            guard type == .string else { throw mismatch(.string) }
            try dataset.append(values.map { $0 ?? "" })
            return
        }
        // Runs of equal values (a source file repeated on every row) are checked and encoded once.
        var previous: String?? = .none
        for value in values where value != previous {
            previous = value
            if let value, value.utf8.count > width {
                throw HDF5Error("write \(dataset.path)", detail: "\"\(value)\" is longer than the column's \(width) bytes")
            }
        }
        previous = .none
        var encoded: [UInt8] = []
        var row = 0
        while row < values.count {
            let rows = min(chunkRows - staged, values.count - row)
            let base = stage.baseAddress! + staged * width
            base.initializeMemory(as: UInt8.self, repeating: 0, count: rows * width)
            for index in 0..<rows {
                let value = values[row + index]
                if value != previous {
                    encoded = Array((value ?? "").utf8)
                    previous = value
                }
                encoded.withUnsafeBytes { source in
                    guard let from = source.baseAddress else { return }
                    (base + index * width).copyMemory(from: from, byteCount: source.count)
                }
            }
            staged += rows
            row += rows
            if staged == chunkRows { try writeStage() }
        }
    }

    /// Writes the staged rows (the last, partial chunk).
    public func flush() throws(HDF5Error) {
        if staged > 0 { try writeStage() }
    }

    private func append(_ bytes: UnsafeRawBufferPointer, rows: Int, as expected: HDF5ElementType) throws(HDF5Error) {
        guard type == expected else { throw mismatch(expected) }
        guard rows > 0, let source = bytes.baseAddress else { return }
        guard stagesNumbers else {
            try dataset.appendRaw(rows, memoryType: memoryType, source)
            return
        }
        var row = 0
        while row < rows {
            if staged == 0 && rows - row >= chunkRows {
                // Whole chunks go straight from the caller's buffer.
                let whole = (rows - row) / chunkRows * chunkRows
                try dataset.appendRaw(whole, memoryType: memoryType, source + row * elementSize)
                row += whole
                continue
            }
            let count = min(chunkRows - staged, rows - row)
            (stage.baseAddress! + staged * elementSize)
                .copyMemory(from: source + row * elementSize, byteCount: count * elementSize)
            staged += count
            row += count
            if staged == chunkRows { try writeStage() }
        }
    }

    private func writeStage() throws(HDF5Error) {
        let rows = staged
        staged = 0
        try dataset.appendRaw(rows, memoryType: memoryType, UnsafeRawPointer(stage.baseAddress!))
    }

    private func mismatch(_ given: HDF5ElementType) -> HDF5Error {
        HDF5Error("write \(dataset.path)", detail: "\(given) values for a dataset of \(type)")
    }
}
