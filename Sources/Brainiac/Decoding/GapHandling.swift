/// How samples lost in plausible gaps are treated downstream (spec §2.5).
public enum GapHandling: String, Sendable, Codable, CaseIterable {
    /// Faithful to the SDK: received samples are concatenated; the counter counts received samples only.
    case sdk
    /// Lost samples are inserted by per-channel linear interpolation and marked `filled`; counter = sample_index.
    case fill
}
