import SystemPackage

/// The signal file formats a tool writes, chosen by the extension of `-o` (docs/bids.md).
public enum SignalFileKind: String, Sendable, CaseIterable {
    /// EDF+ (European Data Format, 16-bit samples), annotations in an `EDF Annotations` channel.
    case edf
    /// BDF+ (BioSemi's 24-bit EDF), annotations in a `BDF Annotations` channel.
    case bdf
    /// BrainVision Core Data Format 1.0: `.vhdr` header, `.vmrk` markers, `.eeg` samples (float32, multiplexed).
    case brainVision = "vhdr"

    /// The kind `-o path` asks for, or `nil` when the extension is not a signal file's (`.edf`, `.bdf`, `.vhdr`,
    /// any case).
    public init?(path: String) {
        guard !path.hasSuffix("/"), let ext = FilePath(path).extension?.lowercased() else { return nil }
        self.init(rawValue: ext)
    }

    /// Bits per stored sample: 16 (EDF), 24 (BDF); BrainVision stores float32.
    public var bits: Int {
        switch self {
        case .edf: 16
        case .bdf: 24
        case .brainVision: 32
        }
    }

    /// The name used in messages and summaries.
    public var displayName: String {
        switch self {
        case .edf: "EDF+"
        case .bdf: "BDF+"
        case .brainVision: "BrainVision"
        }
    }

    /// Every file written for `path`: the file itself, and for BrainVision the `.vmrk` and `.eeg` beside the
    /// `.vhdr` (same stem), data first, header last.
    public func files(for path: String) -> [String] {
        guard self == .brainVision else { return [path] }
        var stem = FilePath(path)
        stem.extension = nil
        return [stem.string + ".eeg", stem.string + ".vmrk", path]
    }
}
