/// Why a capture cannot be decoded at all (spec §2.6, "Fatal").
public enum CaptureDecodingError: Error, Equatable, Sendable {
    /// The file has no bytes.
    case empty
    /// The file is shorter than one packet.
    case tooShort(bytes: Int)
    /// No run of chained packets was found anywhere in the file.
    case noPacketStream
    /// The file's length changed while it was read.
    case sizeChanged(expected: Int, read: Int)

    /// The message after the file name.
    public var message: String {
        switch self {
        case .empty: "empty file: no Brainiac packets"
        case .tooShort(let bytes): "\(bytes) byte\(bytes == 1 ? "" : "s"): shorter than one 20-byte Brainiac packet"
        case .noPacketStream: "no Brainiac packet stream (no 4 chained 20-byte packets)"
        case .sizeChanged(let expected, let read): "the file changed while being read (\(expected) bytes expected, \(read) read)"
        }
    }
}
