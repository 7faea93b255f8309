/// One 20-byte notification: an order number, two unknown bytes and two samples of the four channels (spec §1).
///
/// | offset | field |
/// |---|---|
/// | 0–1 | order number `o` (sample A; sample B is `o + 1`) |
/// | 2 | unknown byte, kept raw |
/// | 3, 5, 7, 9 | sample A: T3, O1, T4, O2 (int16) |
/// | 11 | unknown byte, kept raw |
/// | 12, 14, 16, 18 | sample B: T3, O1, T4, O2 (int16) |
public struct BrainiacPacket: Sendable, Equatable {
    /// The packet length in bytes.
    public static let size = 20
    /// Byte offsets of sample A's four channels; sample B's are 9 further.
    static let sampleOffsetsA = [3, 5, 7, 9]
    static let sampleOffsetsB = [12, 14, 16, 18]

    public var orderNumber: UInt16
    public var byte2: UInt8
    public var byte11: UInt8
    /// Raw counts of sample A and sample B, channels T3, O1, T4, O2.
    public var rawA: SIMD4<Int16>
    public var rawB: SIMD4<Int16>

    public init(orderNumber: UInt16, byte2: UInt8 = 0, byte11: UInt8 = 0, rawA: SIMD4<Int16>, rawB: SIMD4<Int16>) {
        self.orderNumber = orderNumber
        self.byte2 = byte2
        self.byte11 = byte11
        self.rawA = rawA
        self.rawB = rawB
    }

    /// Reads the order number at the start of `bytes` (at least 2 bytes).
    @inlinable
    public static func orderNumber(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ order: BrainiacByteOrder) -> UInt16 {
        let first = UInt16(bytes[offset]), second = UInt16(bytes[offset + 1])
        return order.orderIsLittleEndian ? (second << 8 | first) : (first << 8 | second)
    }

    /// Decodes 20 bytes starting at `offset`.
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ order: BrainiacByteOrder) {
        precondition(offset >= 0 && offset + BrainiacPacket.size <= bytes.count, "a packet past the bytes' end")
        orderNumber = BrainiacPacket.orderNumber(bytes, at: offset, order)
        byte2 = bytes[offset + 2]
        byte11 = bytes[offset + 11]
        rawA = BrainiacPacket.channels(bytes, at: offset + 3, littleEndian: order.samplesAreLittleEndian)
        rawB = BrainiacPacket.channels(bytes, at: offset + 12, littleEndian: order.samplesAreLittleEndian)
    }

    /// The four int16 channels of one sample at `offset`, read in one 8-byte load.
    @inlinable
    static func channels(_ bytes: UnsafeRawBufferPointer, at offset: Int, littleEndian: Bool) -> SIMD4<Int16> {
        var word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        if !littleEndian {
            // Swap the two bytes of each 16-bit lane.
            word = (word & 0x00FF_00FF_00FF_00FF) << 8 | (word >> 8) & 0x00FF_00FF_00FF_00FF
        }
        return SIMD4(Int16(truncatingIfNeeded: word), Int16(truncatingIfNeeded: word >> 16),
                     Int16(truncatingIfNeeded: word >> 32), Int16(truncatingIfNeeded: word >> 48))
    }

    /// The 20 bytes of this packet in the given byte order.
    public func encoded(_ order: BrainiacByteOrder) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: BrainiacPacket.size)
        func put(_ value: UInt16, at offset: Int, littleEndian: Bool) {
            bytes[offset] = UInt8(truncatingIfNeeded: littleEndian ? value : value >> 8)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: littleEndian ? value >> 8 : value)
        }
        put(orderNumber, at: 0, littleEndian: order.orderIsLittleEndian)
        bytes[2] = byte2
        bytes[11] = byte11
        for channel in 0..<4 {
            put(UInt16(bitPattern: rawA[channel]), at: BrainiacPacket.sampleOffsetsA[channel],
                littleEndian: order.samplesAreLittleEndian)
            put(UInt16(bitPattern: rawB[channel]), at: BrainiacPacket.sampleOffsetsB[channel],
                littleEndian: order.samplesAreLittleEndian)
        }
        return bytes
    }

    /// Sample A in nV (floored, as the SDK stored it).
    @inlinable @inline(__always)
    public var nanovoltsA: SIMD4<Double> { BrainiacScaling.nanovolts(rawA) }
    /// Sample B in nV.
    @inlinable @inline(__always)
    public var nanovoltsB: SIMD4<Double> { BrainiacScaling.nanovolts(rawB) }
}

/// Order-number arithmetic, always modulo 65536 (spec §2.2).
public enum OrderNumber {
    /// `Δ(a, b) = (b − a) mod 65536`.
    @inlinable
    public static func distance(_ a: UInt16, _ b: UInt16) -> Int { Int(b &- a) }

    /// The SDK's signed view of an order number (`o ≥ 0x8000` shown negative).
    @inlinable
    public static func sdkView(_ order: UInt16) -> Int16 { Int16(bitPattern: order) }
}
