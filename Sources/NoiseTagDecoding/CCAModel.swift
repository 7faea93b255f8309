import LinearAlgebra

/// The fitting options of the canonical-correlation model (pymindaffectBCI 0.9.24 `MultiCCA` defaults).
public struct CCAOptions: Sendable, Codable, Equatable {
    /// The event types modelled (`evtlabs`).
    public var eventTypes: [EventType] = [.re, .fe]
    /// The impulse-response length (`tau_ms`), ms; PMB's online decoder and notebook use 450.
    public var tauMs: Double = 450
    /// Components kept (`rank`).
    public var rank: Int = 1
    /// Ridge on the EEG covariance, as a fraction of its median diagonal (`reg[0]`); the event covariance gets none.
    public var regularisation: Double = 1e-8
    /// Eigenvalues below this fraction of the median are dropped when whitening the EEG covariance (`rcond[0]`).
    public var rcondX: Double = 1e-4
    /// The same for the event covariance (`rcond[1]`).
    public var rcondY: Double = 1e-8
    /// Trials (and trial channels at twice this) whose power is this many standard deviations above the mean are
    /// zeroed before fitting (`badEpThresh`).
    public var badEpochThreshold: Double = 6
    /// Remove the EEG mean from the covariances (`center`).
    public var center: Bool = true

    public init() {}

    enum CodingKeys: String, CodingKey {
        case eventTypes = "evtlabs", tauMs = "tau_ms", rank, regularisation = "reg", rcondX = "rcond_x",
             rcondY = "rcond_y", badEpochThreshold = "bad_ep_thresh", center
    }
}

/// A fitted model: a spatial filter per component and an impulse response per component and event type.
public struct CCAModel: Sendable {
    /// Channels.
    public var channels: Int
    /// Impulse-response length in samples.
    public var tau: Int
    public var eventTypes: [EventType]
    /// `rank × channels`: the spatial filters W.
    public var spatialFilters: [[Double]]
    /// `rank × events × tau`: the impulse responses R (in the filtered EEG's units per unit of W·X).
    public var impulseResponses: [[[Double]]]
    /// `rank × channels`: the spatial patterns A = Cxx·W (µV per unit of the filtered signal).
    public var spatialPatterns: [[Double]]
    /// The canonical correlations' singular values, descending.
    public var singularValues: [Double]

    /// Fits the model to `x` (`trials × samples × channels`) against output 0 of `events`, for the trials `subset`.
    public static func fit(x: [Float], events: EventCoding, channels: Int, trials subset: [Int], tau: Int,
                           options: CCAOptions) throws -> CCAModel {
        let samples = events.samples, e = events.types.count, outputs = events.outputs
        let trials = subset.count
        // Copies of the training trials: EEG in double precision, output 0's events.
        var xs = [Double](repeating: 0, count: trials * samples * channels)
        var ys = [Double](repeating: 0, count: trials * samples * e)
        for (i, trial) in subset.enumerated() {
            for s in 0..<samples {
                for d in 0..<channels { xs[(i * samples + s) * channels + d] = Double(x[(trial * samples + s) * channels + d]) }
                for k in 0..<e { ys[(i * samples + s) * e + k] = Double(events.values[((trial * samples + s) * outputs) * e + k]) }
            }
        }
        zeroOutliers(&xs, &ys, trials: trials, samples: samples, channels: channels, events: e, threshold: options.badEpochThreshold)

        let total = Double(trials * samples)
        var mean = [Double](repeating: 0, count: channels)
        for i in 0..<(trials * samples) { for d in 0..<channels { mean[d] += xs[i * channels + d] } }
        // Cxx = (Σ x xᵀ − s sᵀ / N) / trials (PMB divides by the number of trials).
        var cxxValues = [Double](repeating: 0, count: channels * channels)
        xs.withUnsafeBufferPointer { x in
            for i in 0..<(trials * samples) {
                let row = i * channels
                for a in 0..<channels {
                    let va = x[row + a]
                    if va == 0 { continue }
                    for b in 0..<channels { cxxValues[a * channels + b] += va * x[row + b] }
                }
            }
        }
        for a in 0..<channels {
            for b in 0..<channels {
                cxxValues[a * channels + b] = (cxxValues[a * channels + b] - (options.center ? mean[a] * mean[b] / total : 0)) / Double(trials)
            }
        }
        let cxx = Matrix(rows: channels, columns: channels, values: cxxValues)
        for d in 0..<channels { mean[d] /= total }

        // Cxy[e·tau + t, d] = Σ y[s, e]·x[s + t, d] over windows s = 0…samples − tau, less the means' product;
        // Cyy[e·tau + t, f·tau + u] = Σ y[s + t, e]·y[s + u, f] / (trials · samples) (only nearby events meet).
        let windows = max(samples - tau + 1, 0)
        let width = e * tau
        var cxyValues = [Double](repeating: 0, count: width * channels)
        var cyyValues = [Double](repeating: 0, count: width * width)
        var eventSums = [Double](repeating: 0, count: e)
        for i in 0..<trials {
            var occurrences: [(sample: Int, type: Int, value: Double)] = []
            for s in 0..<samples {
                for k in 0..<e where ys[(i * samples + s) * e + k] != 0 { occurrences.append((s, k, ys[(i * samples + s) * e + k])) }
            }
            for o in occurrences where o.sample < windows {
                eventSums[o.type] += o.value
                for t in 0..<tau {
                    let row = (i * samples + o.sample + t) * channels
                    for d in 0..<channels { cxyValues[(o.type * tau + t) * channels + d] += o.value * xs[row + d] }
                }
            }
            // Occurrences are in sample order: the partners of p lie within tau samples of it.
            for (pi, p) in occurrences.enumerated() {
                var qi = pi
                while qi > 0 && p.sample - occurrences[qi - 1].sample < tau { qi -= 1 }
                while qi < occurrences.count && occurrences[qi].sample - p.sample < tau {
                    let q = occurrences[qi]
                    qi += 1
                    // Windows s with s + t = p, s + u = q, 0 ≤ t, u < tau, 0 ≤ s < windows.
                    let low = max(0, p.sample - tau + 1, q.sample - tau + 1)
                    let high = min(windows - 1, p.sample, q.sample)
                    if low > high { continue }
                    let product = p.value * q.value
                    for s in low...high {
                        cyyValues[(p.type * tau + p.sample - s) * width + q.type * tau + q.sample - s] += product
                    }
                }
            }
        }
        if options.center {
            for k in 0..<e { for t in 0..<tau { for d in 0..<channels { cxyValues[(k * tau + t) * channels + d] -= eventSums[k] * mean[d] } } }
        }
        let cxy = Matrix(rows: width, columns: channels, values: cxyValues)
        let cyy = Matrix(rows: width, columns: width, values: cyyValues.map { $0 / total })

        // CCA: whiten both sides, SVD of the whitened cross-covariance.
        let whiteX = try whitener(cxx, regularisation: options.regularisation, rcond: options.rcondX)
        let whiteY = try whitener(cyy, regularisation: 0, rcond: options.rcondY)
        let whitened = Matrix.product(whiteY, cxy * whiteX, transposeA: true)
        let svd = try SingularValueDecomposition(whitened)
        let rank = min(options.rank, svd.singularValues.count)
        let largest = svd.singularValues.first ?? 1
        let w = whiteX * svd.vt.transposed
        let r = whiteY * svd.u
        var filters: [[Double]] = [], responses: [[[Double]]] = [], patterns: [[Double]] = []
        for component in 0..<rank {
            var filter = w.column(component)
            var response = r.column(component).map { $0 * svd.singularValues[component] / largest }
            // Sign: the pattern's largest-magnitude channel positive (the decomposition leaves it open).
            var pattern = (0..<channels).map { a in (0..<channels).reduce(0.0) { $0 + cxx[a, $1] * filter[$1] } }
            if let peak = pattern.indices.max(by: { abs(pattern[$0]) < abs(pattern[$1]) }), pattern[peak] < 0 {
                filter = filter.map { -$0 }
                response = response.map { -$0 }
                pattern = pattern.map { -$0 }
            }
            filters.append(filter)
            responses.append((0..<e).map { Array(response[($0 * tau)..<(($0 + 1) * tau)]) })
            patterns.append(pattern)
        }
        return CCAModel(channels: channels, tau: tau, eventTypes: events.types, spatialFilters: filters,
                        impulseResponses: responses, spatialPatterns: patterns, singularValues: svd.singularValues)
    }

    /// PMB `robust_whitener` (non-symmetric form): eigenvectors over √eigenvalue, dropping eigenvalues below
    /// `rcond` × their median magnitude or below machine precision; `regularisation` shrinks toward the median
    /// diagonal first.
    static func whitener(_ c: Matrix, regularisation: Double, rcond: Double) throws -> Matrix {
        let n = c.rows
        var symmetric = 0.5 * (c + c.transposed)
        if regularisation != 0 {
            let medianDiagonal = Statistics.median((0..<n).map { symmetric[$0, $0] })
            symmetric = (1 - regularisation) * symmetric
            for i in 0..<n { symmetric[i, i] += regularisation * medianDiagonal }
        }
        let eigen = try SymmetricEigen(symmetric)
        var values = eigen.values
        var bad = values.map { !$0.isFinite || abs($0) < Double.ulpOfOne }
        for i in 0..<n where bad[i] { values[i] = 0 }
        let medianMagnitude = Statistics.median(values.map(abs))
        for i in 0..<n where values[i] < rcond * medianMagnitude { bad[i] = true }
        let keep = (0..<n).filter { !bad[$0] }
        var result = Matrix(rows: n, columns: keep.count)
        for (column, index) in keep.enumerated() {
            let scale = 1 / abs(values[index]).squareRoot()
            for row in 0..<n { result[row, column] = eigen.vectors[row, index] * scale }
        }
        return result
    }

    /// PMB `zero_outliers`: whole trials whose power (root sum of squares) lies above mean + threshold·SD of the
    /// trials still counted good (4 rounds) are zeroed, EEG and events; then single trial channels likewise at
    /// twice the threshold (EEG only).
    static func zeroOutliers(_ x: inout [Double], _ y: inout [Double], trials: Int, samples: Int, channels: Int,
                             events: Int, threshold: Double) {
        guard threshold > 0, trials > 0 else { return }
        func outliers(_ power: [Double], _ limit: Double) -> [Bool] {
            var good = [Bool](repeating: true, count: power.count)
            for _ in 0..<4 {
                let kept = power.indices.filter { good[$0] }.map { power[$0] }
                if kept.isEmpty { break }
                let mu = kept.reduce(0, +) / Double(kept.count)
                let sigma = (kept.map { ($0 - mu) * ($0 - mu) }.reduce(0, +) / Double(kept.count)).squareRoot()
                for i in power.indices where power[i] > mu + limit * sigma { good[i] = false }
            }
            return good.map { !$0 }
        }
        let trialPower = (0..<trials).map { i in
            x[(i * samples * channels)..<((i + 1) * samples * channels)].reduce(0) { $0 + $1 * $1 }.squareRoot()
        }
        for (i, isBad) in outliers(trialPower, threshold).enumerated() where isBad {
            for j in (i * samples * channels)..<((i + 1) * samples * channels) { x[j] = 0 }
            for j in (i * samples * events)..<((i + 1) * samples * events) { y[j] = 0 }
        }
        var channelPower = [Double](repeating: 0, count: trials * channels)
        for i in 0..<trials {
            for s in 0..<samples { for d in 0..<channels { let v = x[(i * samples + s) * channels + d]; channelPower[i * channels + d] += v * v } }
        }
        channelPower = channelPower.map { $0.squareRoot() }
        for (index, isBad) in outliers(channelPower, 2 * threshold).enumerated() where isBad {
            let i = index / channels, d = index % channels
            for s in 0..<samples { x[(i * samples + s) * channels + d] = 0 }
        }
    }
}
