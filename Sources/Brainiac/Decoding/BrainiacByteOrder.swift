/// The byte order of a capture's order numbers and samples (spec §1, "Legacy byte order").
public enum BrainiacByteOrder: String, Sendable, Codable, CaseIterable {
    /// Big-endian order numbers and samples: firmware from 2015-08-24 on (the default).
    case be
    /// Little-endian order numbers and samples: 2015-04-12 → 2015-05-05, and the Windows reader.
    case le
    /// Little-endian order numbers, big-endian samples: 2015-05-06 → 2015-08-23.
    case mixed

    /// Whether order numbers are little-endian.
    public var orderIsLittleEndian: Bool { self != .be }
    /// Whether samples are little-endian.
    public var samplesAreLittleEndian: Bool { self == .le }
}
