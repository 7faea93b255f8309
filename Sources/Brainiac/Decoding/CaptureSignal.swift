import Tables

/// A Brainiac capture as a signal file (`bt-decode capture.bin -o capture.bdf`, docs/bids.md): T3, O1, T4, O2 in
/// µV on the device clock, every value a whole number of nV (the channel grid is 0.001 µV, so BDF holds them
/// exactly). A sink that stores whole steps of the grid (a BDF: ``SignalSink/storesGridCounts``) is handed the
/// whole nV as they are, an interpolated fill rounded to the nearest nV as it would round it; any other sink gets
/// the values in µV, fills unrounded.
///
/// The file is continuous on the device clock: lost samples are filled (linear interpolation, as
/// `--gaps fill`; the tool asks the decoder for it) and each run of them is annotated `BAD_lost_samples` at its
/// place and length. Segments (the order numbers restarted: the device clock itself restarted, the time between
/// is unknown) follow each other, each junction annotated `BAD_discontinuity` (duration 0): splitting would turn one
/// capture into several files for a rare event and lose nothing that the annotation does not say.
///
/// With the SDK analysis (not `--no-analysis`), each segment's baseline is annotated `baseline/<status>` over its
/// S…E samples and each indicator `indicator/<zone name>` (or `indicator/none`) at its moment, as the `baseline`
/// and `indicators` tables give them for a `--gaps fill` run.
extension CaptureFormat: SignalExportingFormat {
    public func readSignal(_ input: InputSource, into sink: SignalSink) throws -> Decoded {
        let rate = BrainiacHeadband.samplingRate
        try sink.begin(SignalDescription(
            channels: BrainiacHeadband.channelNames.map {
                SignalChannel(label: $0, type: "EEG", unit: "uV", grid: 1 / Self.nanovoltsPerMicrovolt)
            },
            samplingRate: rate, equipment: "Brainiac"))
        var timeline = SignalTimeline()
        let analysis = options.analysis.map {
            AnalysisPipeline(BrainiacAnalysis(sourceFile: input.path, options: $0, scope: .zones))
        }
        var marks: [(segment: Int, onset: Double, duration: Double, text: String)] = []
        func collect(_ table: Table) {
            marks += Self.analysisAnnotations(table)
        }
        // A batch's frames, each sample's nV made a frame by `frame`; the timeline annotates as it goes. A new array
        // per batch: the writer keeps it (no copy) while this goes on decoding.
        func frames<Scalar: SIMDScalar>(_ batch: [BrainiacSample],
                                         _ frame: (SIMD4<Double>) -> SIMD4<Scalar>) -> [Scalar] {
            [Scalar](unsafeUninitializedCapacity: batch.count * 4) { buffer, initialized in
                timeline.take(batch, annotate: sink.annotate) { index, nanovolts in
                    buffer.storeFrame(frame(nanovolts), at: index)
                }
                initialized = batch.count * 4
            }
        }
        let asCounts = sink.storesGridCounts
        let decoded = try decode(input) { batch in
            if asCounts {
                try sink.append(gridCounts: frames(batch, BrainiacScaling.wholeNanovolts),
                                stepsPerUnit: Self.nanovoltsPerMicrovolt, channelCount: 4)
            } else {
                try sink.append(frames(batch) { $0 / Self.nanovoltsPerMicrovolt }, channelCount: 4)
            }
            for table in analysis?.consume(batch) ?? [] where table.rowCount > 0 { collect(table) }
        }
        timeline.closeRun(annotate: sink.annotate)
        for table in analysis?.finish(complete: true) ?? [] where table.rowCount > 0 { collect(table) }
        for mark in marks {
            let start = Double(timeline.segmentStarts[mark.segment] ?? 0) / rate
            sink.annotate(SignalAnnotation(onset: start + mark.onset, duration: mark.duration, description: mark.text))
        }
        return decoded
    }

    /// The channels' grid steps to the µV: values go to the sink as whole nV.
    static let nanovoltsPerMicrovolt = 1000.0
}

/// Where a capture's samples fall in the signal file: frames written, the segment under way and the run of filled
/// (lost) samples under way, each segment's first frame; annotations for lost samples and discontinuities.
private struct SignalTimeline {
    private var frames = 0
    private var segment: Int?
    private var filledRun: (start: Int, count: Int)?
    /// The frame at which each segment's sample index 0 lies.
    private(set) var segmentStarts: [Int: Int] = [:]

    /// Takes a batch of samples: hands each one's frame index within the batch and its values in nV to `store`,
    /// and annotates what they start or end. (A mutating method, so the loop's state stays in registers; inlined,
    /// so that `store` is too.)
    @inline(__always)
    mutating func take(_ batch: [BrainiacSample], annotate: (SignalAnnotation) -> Void,
                       store: (Int, SIMD4<Double>) -> Void) {
        let rate = BrainiacHeadband.samplingRate
        for (index, sample) in batch.enumerated() {
            if sample.segment != segment {
                if segment != nil {
                    closeRun(annotate: annotate)
                    annotate(SignalAnnotation(onset: Double(frames) / rate, description: "BAD_discontinuity"))
                }
                segment = sample.segment
                segmentStarts[sample.segment] = frames - sample.sampleIndex
            }
            if sample.filled {
                if let run = filledRun { filledRun = (run.start, run.count + 1) } else { filledRun = (frames, 1) }
            } else if filledRun != nil {
                closeRun(annotate: annotate)
            }
            frames += 1
            store(index, sample.nanovolts)
        }
    }

    /// Annotates the run of filled samples under way, if any, as `BAD_lost_samples`.
    mutating func closeRun(annotate: (SignalAnnotation) -> Void) {
        guard let run = filledRun else { return }
        let rate = BrainiacHeadband.samplingRate
        annotate(SignalAnnotation(onset: Double(run.start) / rate, duration: Double(run.count) / rate,
                                  description: "BAD_lost_samples"))
        filledRun = nil
    }
}

extension CaptureFormat {
    /// The annotations of a batch of the `baseline` or `indicators` table: (segment, onset within the segment in
    /// s, duration, text). Other tables give none.
    static func analysisAnnotations(_ table: Table) -> [(segment: Int, onset: Double, duration: Double, text: String)] {
        func ints(_ name: String) -> [Int]? {
            guard case .int32(let v)? = table[column: name]?.values else { return nil }
            return v.map(Int.init)
        }
        func doubles(_ name: String) -> [Double]? {
            guard case .float64(let v)? = table[column: name]?.values else { return nil }
            return v
        }
        func strings(_ name: String) -> [String?]? {
            guard case .string(let v)? = table[column: name]?.values else { return nil }
            return v
        }
        let rate = BrainiacHeadband.samplingRate
        switch table.name {
        case "baseline":
            guard let segments = ints("segment"), let ends = doubles("t_s"), let starts = ints("start_counter"),
                  let stops = ints("end_counter"), let status = strings("status") else { return [] }
            return segments.indices.compactMap { i in
                guard ends[i].isFinite else { return nil }
                let duration = Double(stops[i] - starts[i]) / rate
                return (segments[i], ends[i] - duration, duration, "baseline/" + (status[i] ?? "unknown"))
            }
        case "indicators":
            guard let segments = ints("segment"), let times = doubles("t_s"), let zones = strings("zone_name")
            else { return [] }
            return segments.indices.compactMap { i in
                times[i].isFinite ? (segments[i], times[i], 0, "indicator/" + (zones[i] ?? "none")) : nil
            }
        default:
            return []
        }
    }
}

extension UnsafeMutableBufferPointer {
    /// Stores a frame's four values at once, as frame `index` of a frame-major buffer of four channels.
    @inline(__always)
    fileprivate func storeFrame(_ frame: SIMD4<Element>, at index: Int) where Element: SIMDScalar {
        UnsafeMutableRawPointer(baseAddress!).storeBytes(of: frame, toByteOffset: index * MemoryLayout<SIMD4<Element>>.stride,
                                                         as: SIMD4<Element>.self)
    }
}
