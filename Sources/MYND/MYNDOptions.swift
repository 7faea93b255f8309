import Spectral
import Tables

/// The options of a `mynd-parse` run, as the provenance records them: the analysis options with the Welch,
/// signal-quality and app-alpha constants the library uses, the date order, and the files options named.
public struct MYNDOptions: Sendable, Encodable {
    public var analysis: RecordingAnalysisOptions
    /// Day/month order of localized dates; `nil` decides it from the recordings' timestamps.
    public var dateOrder: DateOrder?
    /// The folder of questionnaire definitions (`--definitions`), if given.
    public var definitionsFolder: String?
    /// The subject folder checked against a protocol (`--check-protocol`), and the protocol's name.
    public var checkedFolder: String?
    public var protocolName: String?

    public init(analysis: RecordingAnalysisOptions = RecordingAnalysisOptions(), dateOrder: DateOrder? = nil,
                definitionsFolder: String? = nil, checkedFolder: String? = nil, protocolName: String? = nil) {
        self.analysis = analysis
        self.dateOrder = dateOrder
        self.definitionsFolder = definitionsFolder
        self.checkedFolder = checkedFolder
        self.protocolName = protocolName
    }

    private struct Welch: Encodable {
        var segment_s: Double
        var overlap = 0.5
        var window = "hann (periodic)"
        var detrend = "constant"
        var scaling = "density"
        var epoch_mean_removed = true
        var relative_to_hz = [1.0, 45.0]
    }
    private struct Quality: Encodable {
        var window_s = 0.5
        var threshold_uv2 = SignalQuality.threshold
        var initial_average = SignalQuality.initialAverage
    }
    private struct AppAlphaWindows: Encodable {
        var window_s = AppAlpha.windowSeconds
        var step_s = AppAlpha.stepSeconds
        var band_hz = [8.0, 12.0]
        var window = "hann (symmetric)"
    }

    enum CodingKeys: String, CodingKey {
        case dateOrder = "date_order", bands, welch, quality, appAlpha = "app_alpha", definitions
        case checkProtocol = "check_protocol", protocolName = "protocol_name"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dateOrder?.rawValue ?? "auto", forKey: .dateOrder)
        try container.encode(analysis.bands.map(\.description).joined(separator: ","), forKey: .bands)
        try container.encode(Welch(segment_s: analysis.welchSegmentSeconds), forKey: .welch)
        try container.encode(Quality(), forKey: .quality)
        try container.encode(AppAlphaWindows(), forKey: .appAlpha)
        try container.encodeIfPresent(definitionsFolder, forKey: .definitions)
        try container.encodeIfPresent(checkedFolder, forKey: .checkProtocol)
        try container.encodeIfPresent(protocolName, forKey: .protocolName)
    }
}
