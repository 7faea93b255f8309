/// One decoded sample of the four channels, as the decoder hands it on to the tables and the SDK computations.
public struct BrainiacSample: Sendable, Equatable {
    /// T3, O1, T4, O2 in nV, floored as the SDK does (`floor(raw × K)`); interpolated values for filled samples.
    /// (Declared first: with its 32-byte alignment, this keeps a sample at 64 bytes instead of 96.)
    public var nanovolts: SIMD4<Double>
    /// The segment of the input it belongs to (0-based; a discontinuity starts a new one).
    public var segment: Int
    /// Position on the device clock from the order numbers: 0 at the segment's first sample, lost samples counted.
    public var sampleIndex: Int
    /// The SDK's received-sample count before this sample: 0 for the segment's first decoded sample, +1 per
    /// sample. Under `--gaps sdk` lost samples are not counted; under `--gaps fill` it equals ``sampleIndex``.
    public var counter: Int
    /// The order number (sample A: the packet's `o`; sample B: `o + 1`, modulo 65536).
    public var orderNumber: UInt16
    /// The packet's unknown bytes 2 and 11, kept raw.
    public var byte2: UInt8
    public var byte11: UInt8
    /// Whether the sample was inserted by `--gaps fill` (linear interpolation), not received.
    public var filled: Bool

    public init(segment: Int, sampleIndex: Int, counter: Int, orderNumber: UInt16, byte2: UInt8, byte11: UInt8,
                nanovolts: SIMD4<Double>, filled: Bool = false) {
        self.segment = segment
        self.sampleIndex = sampleIndex
        self.counter = counter
        self.orderNumber = orderNumber
        self.byte2 = byte2
        self.byte11 = byte11
        self.nanovolts = nanovolts
        self.filled = filled
    }

    /// The device-clock time in seconds, `sample_index / 250`.
    public var timeSeconds: Double { Double(sampleIndex) / BrainiacHeadband.samplingRate }

    /// Whether a lost-sample gap lies between this sample and the previous received one of its segment
    /// (set by the decoder under `--gaps sdk`; frames whose window contains such a sample span a gap).
    public var followsGap: Bool = false
}
