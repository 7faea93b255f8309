import Foundation

/// A recording as bytes, to hand it from the process that read the HDF5 file to the one that analyses it
/// (`mynd-parse` reads each recording in a child process; see `IsolatedReader`). Exact: the metadata as JSON
/// (non-finite numbers spelled out), then the samples, markers and timestamps as raw arrays in the machine's
/// byte order (both sides are the same program on the same machine).
extension MYNDRecording {
    /// The layout: the length of the JSON (UInt64, little-endian), the JSON (the recording without its arrays, plus their lengths),
    /// each channel's float64 values, the markers as int64, the timestamps as int64.
    public func transferData() throws -> Data {
        var header = self
        header.channels = []
        header.markers = []
        header.timestamps = []
        let json = try Self.encoder.encode(TransferHeader(recording: header, channelLengths: channels.map(\.count),
                                                          markerCount: markers.count,
                                                          timestampCount: timestamps.count))
        var data = Data()
        Self.append(UInt64(json.count), to: &data)
        data.append(json)
        for channel in channels { channel.withUnsafeBytes { data.append(contentsOf: $0) } }
        markers.map { Int64($0) }.withUnsafeBytes { data.append(contentsOf: $0) }
        timestamps.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// The recording ``transferData()`` encoded. Throws ``TransferError`` when the bytes do not hold one.
    public init(transferData data: Data) throws {
        var reader = TransferReader(data: data)
        let length = Int(try reader.integer(UInt64.self))
        let header = try Self.decoder.decode(TransferHeader.self, from: try reader.bytes(length))
        self = header.recording
        channels = try header.channelLengths.map { try reader.array(Double.self, count: $0) }
        markers = try reader.array(Int64.self, count: header.markerCount).map { Int($0) }
        timestamps = try reader.array(Int64.self, count: header.timestampCount)
        guard reader.isAtEnd else { throw TransferError(message: "\(data.count - reader.offset) bytes too many") }
    }

    /// The bytes do not hold a recording (a bug, not a property of the input).
    public struct TransferError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "a recording handed over by the reader process is damaged: \(message)" }
    }

    private struct TransferHeader: Codable {
        var recording: MYNDRecording
        var channelLengths: [Int]
        var markerCount: Int
        var timestampCount: Int
    }

    private static let nonFinite = (positive: "Infinity", negative: "-Infinity", nan: "NaN")

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positive, negativeInfinity: nonFinite.negative, nan: nonFinite.nan)
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFinite.positive, negativeInfinity: nonFinite.negative, nan: nonFinite.nan)
        return decoder
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}

/// Reads the parts of a transfer in order.
private struct TransferReader {
    let data: Data
    var offset = 0

    var isAtEnd: Bool { offset == data.count }

    mutating func bytes(_ count: Int) throws -> Data {
        guard count >= 0, count <= data.count - offset else {
            throw MYNDRecording.TransferError(message: "\(count) bytes wanted at offset \(offset) of \(data.count)")
        }
        defer { offset += count }
        return data.subdata(in: data.startIndex + offset ..< data.startIndex + offset + count)
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let raw = try bytes(MemoryLayout<T>.size)
        return T(littleEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
    }

    mutating func array<T: BitwiseCopyable>(_: T.Type, count: Int) throws -> [T] {
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard !overflow else { throw MYNDRecording.TransferError(message: "an array of \(count) values") }
        let raw = try bytes(size)
        return [T](unsafeUninitializedCapacity: count) { values, initialized in
            raw.withUnsafeBytes { UnsafeMutableRawBufferPointer(values).copyMemory(from: $0) }
            initialized = count
        }
    }
}
