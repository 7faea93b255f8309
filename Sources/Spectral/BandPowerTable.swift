import Tables

/// What a `band_power` row's power was estimated over (conventions §2).
public enum BandPowerScope: String, Sendable, Codable, CaseIterable {
    /// A whole recording (Brainiac: a segment).
    case recording
    /// A fixed-length window (`--window-s`).
    case window
    /// An epoch around an event.
    case epoch
    /// All data of one experimental condition.
    case condition
}

/// One row of the shared `band_power` table: one scope × channel × band.
public struct BandPowerRow: Sendable, Equatable {
    public var sourceFile: String
    /// The Brainiac segment; `nil` for tools without segments (and omitted from the table if all are `nil`).
    public var segment: Int?
    public var scope: BandPowerScope
    /// The scope's index: the segment for `recording`, the window number (from 0) for `window`, …
    public var scopeIndex: Int
    /// Time of the scope's first sample in s from the start of the recording.
    public var startSeconds: Double?
    public var channel: String
    public var band: FrequencyBand
    /// Absolute band power in µV² (Σ PSD·Δf).
    public var power: Double
    /// Power over the band ÷ power over 1–45 Hz; `nil` when that is 0.
    public var relativePower: Double?
    /// Welch segments averaged.
    public var segmentCount: Int

    public init(sourceFile: String, segment: Int?, scope: BandPowerScope, scopeIndex: Int, startSeconds: Double?,
                channel: String, band: FrequencyBand, power: Double, relativePower: Double?, segmentCount: Int) {
        self.sourceFile = sourceFile
        self.segment = segment
        self.scope = scope
        self.scopeIndex = scopeIndex
        self.startSeconds = startSeconds
        self.channel = channel
        self.band = band
        self.power = power
        self.relativePower = relativePower
        self.segmentCount = segmentCount
    }
}

/// The shared `band_power` table (conventions §2; Brainiac spec §4.3): `source_file, [segment,] scope,
/// scope_index, t_s, channel, band, fmin_hz, fmax_hz, power_uv2, rel_power, n_segments`.
public enum BandPowerTable {
    /// The table's name.
    public static let name = "band_power"

    /// The rows of one scope and channel: one per band, from a PSD in µV²/Hz.
    public static func rows(_ spectrum: PowerSpectrum, bands: [FrequencyBand], sourceFile: String, segment: Int?,
                            scope: BandPowerScope, scopeIndex: Int, startSeconds: Double?,
                            channel: String) -> [BandPowerRow] {
        let total = BandPower.absolute(spectrum, band: .relativeReference)
        return bands.map { band in
            let power = BandPower.absolute(spectrum, band: band)
            return BandPowerRow(sourceFile: sourceFile, segment: segment, scope: scope, scopeIndex: scopeIndex,
                                startSeconds: startSeconds, channel: channel, band: band, power: power,
                                relativePower: total > 0 ? power / total : nil,
                                segmentCount: spectrum.segmentCount)
        }
    }

    /// The table. `includeSegment` adds the `segment` column after `source_file` (Brainiac); by default it is
    /// included when any row has a segment.
    public static func table(_ rows: [BandPowerRow], includeSegment: Bool? = nil) -> Table {
        var columns: [Column] = [.string("source_file", rows.map(\.sourceFile), description: "the input path as given")]
        if includeSegment ?? rows.contains(where: { $0.segment != nil }) {
            columns.append(.int32("segment", rows.map(\.segment), description: "decoder segment (0-based)"))
        }
        columns += [
            .string("scope", rows.map(\.scope.rawValue), description: "recording, window, epoch or condition"),
            .int32("scope_index", rows.map(\.scopeIndex),
                   description: "segment for scope recording; window number from 0 for scope window"),
            .float("t_s", rows.map(\.startSeconds), unit: "s", description: "time of the scope's first sample"),
            .string("channel", rows.map(\.channel), description: "EEG channel as the input names it"),
            .string("band", rows.map(\.band.name), description: "frequency band name (--bands)"),
            .float("fmin_hz", rows.map(\.band.lo), unit: "Hz", description: "lower edge of the band (inclusive)"),
            .float("fmax_hz", rows.map(\.band.hi), unit: "Hz", description: "upper edge of the band (inclusive)"),
            .float("power_uv2", rows.map(\.power), unit: "µV²",
                   description: "Welch PSD summed times Δf over fmin_hz ≤ f ≤ fmax_hz"),
            .float("rel_power", rows.map(\.relativePower), unit: "1",
                   description: "power_uv2 ÷ the same sum over 1–45 Hz"),
            .int32("n_segments", rows.map(\.segmentCount), unit: "1", description: "Welch segments averaged"),
        ]
        return Table(name, columns)
    }
}
