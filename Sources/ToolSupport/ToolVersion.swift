/// The toolkit's version, shared by every executable and written into every provenance record.
public enum ToolVersion {
    public static let current = "0.1.0"
}
