import Testing
@testable import Brainiac

@Suite("Packets and scaling (spec §1, §6.1, §6.2)")
struct PacketTests {
    @Test("K is computed in the SDK's order")
    func constant() {
        #expect(BrainiacScaling.referenceVolts == 0.012499999999999999)
        #expect(BrainiacScaling.nanovoltsPerCount == 381.48136844996486)
    }

    @Test("floor(raw × K) nV, rounded toward −∞", arguments: [
        (Int16(0), 0.0), (1, 381), (-1, -382), (72, 27466), (100, 38148), (-100, -38149),
        (32767, 12_499_999), (-32768, -12_500_382),
    ])
    func scaling(raw: Int16, nanovolts: Double) {
        #expect(BrainiacScaling.nanovolts(raw) == nanovolts)
    }

    @Test("Every one of the 65,536 raw counts scales to floor(raw × K), as libm's floor gives it")
    func scalingOfEveryCount() {
        let wrong = (Int(Int16.min)...Int(Int16.max)).filter { raw in
            BrainiacScaling.nanovolts(Int16(raw)) != (Double(raw) * BrainiacScaling.nanovoltsPerCount).rounded(.down)
        }
        #expect(wrong.isEmpty, "first wrong count: \(wrong.first ?? 0)")
    }

    @Test("The four channels of a sample scale together, each lane as on its own, for every raw count")
    func scalingOfFourChannels() {
        let wrong = (Int(Int16.min)...Int(Int16.max)).filter { raw in
            let lanes = SIMD4<Int16>((0..<4).map { Int16(truncatingIfNeeded: raw &+ 16_411 &* $0) })
            let scaled = BrainiacScaling.nanovolts(lanes)
            return (0..<4).contains { scaled[$0] != (Double(lanes[$0]) * BrainiacScaling.nanovoltsPerCount).rounded(.down) }
        }
        #expect(wrong.isEmpty, "first wrong count: \(wrong.first ?? 0)")
    }

    @Test("The first two packets of the v2 sequence, byte for byte (§6.2)")
    func firstPackets() throws {
        let (bytes, _) = try synthesize()
        let hex = bytes.prefix(40).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
        #expect(hex == "0000" + "00" + "0000000000000000" + "00" + "0048004800480048"
                    + "0002" + "00" + "0089008900890089" + "00" + "00bd00bd00bd00bd")
        let (samples, _) = try decodeCapture(bytes)
        #expect(samples[0].nanovolts == SIMD4(repeating: 0))
        #expect(samples[1].nanovolts == SIMD4(repeating: 27466))
        #expect(samples[2].nanovolts == SIMD4(repeating: 52262))
        #expect(samples[3].nanovolts == SIMD4(repeating: 72099))
        #expect(samples.map(\.orderNumber).prefix(4) == [0, 1, 2, 3])
    }

    @Test("Extreme and negative values, channel order T3 O1 T4 O2, raw bytes 2 and 11")
    func handMadePacket() {
        // o = 0xFFFE, byte2 = 0xAB, A = (-32768, 32767, -1, 1), byte11 = 0xCD, B = (-100, 100, 72, 0)
        let bytes: [UInt8] = [0xFF, 0xFE, 0xAB, 0x80, 0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0x00, 0x01,
                              0xCD, 0xFF, 0x9C, 0x00, 0x64, 0x00, 0x48, 0x00, 0x00]
        let packet = bytes.withUnsafeBytes { BrainiacPacket($0, at: 0, .be) }
        #expect(packet.orderNumber == 65534)
        #expect(OrderNumber.sdkView(packet.orderNumber) == -2)
        #expect(packet.byte2 == 0xAB && packet.byte11 == 0xCD)
        #expect(packet.nanovoltsA == SIMD4(-12_500_382, 12_499_999, -382, 381))
        #expect(packet.nanovoltsB == SIMD4(-38149, 38148, 27466, 0))
        #expect(packet.encoded(.be) == bytes)
        // The same packet in the legacy layouts reads back the same.
        for order in [BrainiacByteOrder.le, .mixed] {
            let encoded = packet.encoded(order)
            #expect(encoded.withUnsafeBytes { BrainiacPacket($0, at: 0, order) } == packet)
        }
        #expect(packet.encoded(.le).prefix(2) == [0xFE, 0xFF])
        #expect(packet.encoded(.mixed)[3...4] == [0x80, 0x00])
        #expect(packet.encoded(.le)[3...4] == [0x00, 0x80])
    }

    @Test("Order numbers wrap at 16 bits: Δ(65534, 0) = 2")
    func wrap() {
        #expect(OrderNumber.distance(65534, 0) == 2)
        #expect(OrderNumber.distance(65198, 65210) == 12)
        #expect(OrderNumber.distance(462, 466) == 4)
    }
}
