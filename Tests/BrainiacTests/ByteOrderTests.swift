import Testing
@testable import Brainiac

@Suite("Legacy byte orders (spec §2.4)")
struct ByteOrderTests {
    @Test("auto detects be, le and mixed captures and decodes them identically", arguments: BrainiacByteOrder.allCases)
    func detect(order: BrainiacByteOrder) throws {
        let (reference, _) = try synthesize { $0.samples = 6000; $0.noiseMicrovolts = 2; $0.seed = 5 }
        let (bytes, _) = try synthesize { $0.samples = 6000; $0.noiseMicrovolts = 2; $0.seed = 5; $0.byteOrder = order }
        let (samples, stream) = try decodeCapture(bytes)
        #expect(stream.decision?.byteOrder == order)
        #expect(stream.segments.count == 1)
        let (expected, _) = try decodeCapture(reference, byteOrder: .be)
        #expect(samples == expected)
        if order == .be {
            #expect(stream.decision?.scoreLE == nil)
        } else {
            let le = try #require(stream.decision?.scoreLE), mixed = try #require(stream.decision?.scoreMixed)
            #expect(order == .le ? le < mixed : mixed < le)
        }
    }

    @Test("A little-endian file is not decoded through false big-endian locks")
    func noGarbageSegments() throws {
        let (bytes, _) = try synthesize { $0.samples = 6000; $0.byteOrder = .le; $0.leadBytes = 19 }
        let (_, stream) = try decodeCapture(bytes)
        #expect(stream.decision?.byteOrder == .le)
        #expect(stream.segments.count == 1)
        #expect((stream.decision?.packetsLittleEndian ?? 0) > (stream.decision?.packetsBigEndian ?? 0))
    }
}
