import Testing
@testable import Brainiac

@Suite("Decoding real-world captures (spec §2)")
struct CaptureDecoderTests {
    @Test("A clean capture decodes every sample exactly, on the device clock")
    func clean() throws {
        let (bytes, _) = try synthesize { $0.samples = 10_000; $0.ord0 = 65_000 }
        let (samples, stream) = try decodeCapture(bytes)
        #expect(samples.count == 10_000)
        #expect(stream.events.isEmpty)
        #expect(stream.segments.count == 1)
        #expect(stream.segments[0].wraps == 1)
        #expect(stream.segments[0].durationSeconds == 40)
        let sequence = TestSequence.v2(before: .named["baseline"]!, after: .named["red"]!, switchAt: 5250)
        for sample in samples {
            let expected = BrainiacScaling.nanovolts(BrainiacScaling.rawCount(nanovolts: sequence.nanovolts(sample.sampleIndex)))
            #expect(sample.nanovolts == SIMD4(repeating: expected))
            #expect(sample.counter == sample.sampleIndex)
            #expect(sample.orderNumber == UInt16(truncatingIfNeeded: 65_000 + sample.sampleIndex))
        }
        #expect(accountedBytes(stream) == bytes.count)
    }

    @Test("The spec's resynchronisation vector (§6.6)")
    func specResync() throws {
        let (original, _) = try synthesize { $0.samples = 10_000; $0.ord0 = 65_000 }
        var damaged = original
        damaged.removeLast(7)
        damaged.removeSubrange((500 * 20 + 10)..<(500 * 20 + 17))
        damaged.removeSubrange((100 * 20)..<(105 * 20))
        damaged.removeFirst(5)
        #expect(damaged.count == 99_881)
        let (samples, stream) = try decodeCapture(damaged)
        let events = stream.events
        #expect(events.map(\.kind) == [.leadingBytes, .gap, .resync, .truncatedTail])
        #expect(events[0].byteOffset == 0 && events[0].byteCount == 15)
        #expect(events[1].lastOrder == 65_198 && events[1].nextOrder == 65_210)
        #expect(events[1].lostPackets == 5 && events[1].lostSamples == 10)
        #expect(events[2].byteOffset == 9895 && events[2].byteCount == 13)
        #expect(events[2].lastOrder == 462 && events[2].nextOrder == 466 && events[2].lostPackets == 1)
        #expect(events[3].byteCount == 13)
        #expect(stream.segments.count == 1)
        #expect(stream.segments[0].packets == 4992)
        #expect(samples.count == 9984)
        #expect(accountedBytes(stream) == 99_881)
        // Every committed packet is byte-identical to an original: compare decoded values with the originals.
        let (reference, _) = try decodeCapture(original)
        let bySampleIndex = Dictionary(uniqueKeysWithValues: reference.map { ($0.sampleIndex, $0) })
        // Packet 1 is the first committed one: device clock starts there.
        for sample in samples {
            let originalSample = try #require(bySampleIndex[sample.sampleIndex + 2])
            #expect(sample.nanovolts == originalSample.nanovolts)
            #expect(sample.orderNumber == originalSample.orderNumber)
        }
        // The gap's row points at the first sample after it: packet 105 (sample index (105-1)·2 = 208), counter 198.
        #expect(events[1].sampleIndex == 208 && events[1].counter == 198)
    }

    @Test("Lost packets give gap rows with exact counts, and the counter counts received samples only")
    func gaps() throws {
        let (bytes, truth) = try synthesize { $0.samples = 4000; $0.dropPackets = [10, 11, 12, 700] }
        #expect(truth.droppedPackets.map(\.packet) == [10, 11, 12, 700])
        let (samples, stream) = try decodeCapture(bytes)
        #expect(stream.events.map(\.kind) == [.gap, .gap])
        #expect(stream.events.map(\.lostPackets) == [3, 1])
        #expect(stream.events[0].sampleIndex == 26 && stream.events[0].counter == 20)
        #expect(stream.segments[0].lostSamples == 8)
        #expect(samples.count == 4000 - 8)
        #expect(samples.last?.sampleIndex == 3999)
        #expect(samples.last?.counter == 3991)
        #expect(samples.filter(\.followsGap).map(\.sampleIndex) == [26, 1402])
        #expect(accountedBytes(stream) == bytes.count)
    }

    @Test("--gaps fill inserts interpolated samples, and counter equals sample_index")
    func fill() throws {
        let (bytes, _) = try synthesize { $0.samples = 1000; $0.dropPackets = [10] }
        let (samples, _) = try decodeCapture(bytes, options: CaptureDecoderOptions(gaps: .fill))
        #expect(samples.count == 1000)
        #expect(samples.allSatisfy { $0.counter == $0.sampleIndex })
        let filled = samples.filter(\.filled)
        #expect(filled.map(\.sampleIndex) == [20, 21])
        let before = samples[19].nanovolts, after = samples[22].nanovolts
        #expect(filled[0].nanovolts == before + (after - before) * (1.0 / 3.0))
        #expect(filled[1].nanovolts == before + (after - before) * (2.0 / 3.0))
        #expect(filled.map(\.orderNumber) == [20, 21])
    }

    @Test("A restart of the numbering starts a new segment; --no-split keeps one")
    func discontinuity() throws {
        let (bytes, truth) = try synthesize { $0.samples = 2000; $0.concat = true }
        let (samples, stream) = try decodeCapture(bytes)
        #expect(stream.segments.count == 2)
        #expect(stream.events.map(\.kind) == [.discontinuity])
        #expect(stream.events[0].byteOffset == 20_000)
        #expect(stream.events[0].nextOrder == truth.segments[1].ord0)
        #expect(samples.filter { $0.segment == 1 }.first?.sampleIndex == 0)
        #expect(samples.filter { $0.segment == 1 }.first?.counter == 0)
        let (joined, kept) = try decodeCapture(bytes, options: CaptureDecoderOptions(splitSegments: false))
        #expect(kept.segments.count == 1)
        #expect(joined.map(\.sampleIndex) == Array(0..<4000))
        #expect(joined.map(\.counter) == Array(0..<4000))
    }

    @Test("Random faults: every byte is accounted for, and the gaps match the truth", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomFaults(seed: UInt64) throws {
        let (bytes, truth) = try synthesize {
            $0.samples = 20_000; $0.seed = seed; $0.dropRate = 0.01; $0.dropBurst = 2; $0.noiseMicrovolts = 5
            $0.leadBytes = 3; $0.truncateTail = 11
        }
        let (samples, stream) = try decodeCapture(bytes, chunk: 777)
        #expect(accountedBytes(stream) == bytes.count)
        let lost = stream.events.filter { $0.kind == .gap }.reduce(0) { $0 + ($1.lostPackets ?? 0) }
        // Dropped packets after the first (cut by the lead bytes) and before the truncated last packet.
        let expected = truth.droppedPackets.filter { $0.packet > 0 && $0.packet < 9999 }.count
        #expect(lost == expected)
        #expect(samples.count == 2 * stream.segments[0].packets)
    }

    @Test("Byte loss shifts boundaries: resync rows, nothing unaccounted, no damaged packet committed")
    func byteLoss() throws {
        let (bytes, truth) = try synthesize { $0.samples = 20_000; $0.seed = 9; $0.byteLossRate = 0.005 }
        #expect(!truth.byteDeletions.isEmpty)
        let (samples, stream) = try decodeCapture(bytes)
        #expect(accountedBytes(stream) == bytes.count)
        #expect(stream.events.contains { $0.kind == .resync })
        let sequence = TestSequence.v2(before: .named["baseline"]!, after: .named["red"]!, switchAt: 5250)
        let ord0Offset = Int(samples[0].orderNumber)  // device clock from the first committed packet
        for sample in samples where sample.segment == 0 {
            let n = ord0Offset + sample.sampleIndex
            let expected = BrainiacScaling.nanovolts(BrainiacScaling.rawCount(nanovolts: sequence.nanovolts(n)))
            #expect(sample.nanovolts == SIMD4(repeating: expected), "sample \(n)")
        }
    }

    @Test("Chunk size does not change the result")
    func chunking() throws {
        let (bytes, _) = try synthesize { $0.samples = 6000; $0.seed = 4; $0.byteLossRate = 0.01; $0.dropRate = 0.02 }
        let (a, streamA) = try decodeCapture(bytes, chunk: 1)
        let (b, streamB) = try decodeCapture(bytes, chunk: 1 << 20)
        #expect(a == b)
        #expect(streamA.events == streamB.events)
        #expect(streamA.segments == streamB.segments)
    }

    @Test("Fatal inputs: empty, shorter than a packet, no chained packets")
    func fatal() throws {
        #expect(throws: CaptureDecodingError.empty) { try decodeCapture([]) }
        #expect(throws: CaptureDecodingError.tooShort(bytes: 7)) { try decodeCapture([UInt8](repeating: 1, count: 7)) }
        var random = SplitMix64(seed: 3)
        let noise = (0..<5000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        #expect(throws: CaptureDecodingError.noPacketStream) { try decodeCapture(noise) }
        #expect(throws: CaptureDecodingError.noPacketStream) { try decodeCapture([UInt8](repeating: 0, count: 100)) }
    }

    @Test("Tiny files: one packet is accepted, two or three chained packets lock")
    func tiny() throws {
        let (bytes, _) = try synthesize { $0.samples = 6 }
        let (one, _) = try decodeCapture(Array(bytes.prefix(20)))
        #expect(one.count == 2)
        let (three, stream) = try decodeCapture(Array(bytes.prefix(60)))
        #expect(three.count == 6)
        #expect(stream.events.isEmpty)
    }
}
