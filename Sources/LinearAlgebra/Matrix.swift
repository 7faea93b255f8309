import CLAPACK

/// A dense real matrix of doubles, row-major: element (i, j) is `values[i * columns + j]`.
///
/// The one Swift face of LAPACK and BLAS in the package (Debian's reference netlib builds, through LAPACKE and
/// CBLAS): products, the symmetric eigendecomposition and the singular value decomposition. Everything here is
/// deterministic: the reference libraries are single-threaded.
public struct Matrix: Sendable, Equatable {
    public let rows: Int
    public let columns: Int
    /// Row-major values, `rows × columns` of them.
    public var values: [Double]

    /// A matrix of `rows × columns` row-major values.
    public init(rows: Int, columns: Int, values: [Double]) {
        precondition(rows >= 0 && columns >= 0 && values.count == rows * columns, "Matrix: \(values.count) values for \(rows)×\(columns)")
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// A `rows × columns` matrix of `value`.
    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        self.init(rows: rows, columns: columns, values: Array(repeating: value, count: rows * columns))
    }

    /// The n × n identity.
    public static func identity(_ n: Int) -> Matrix {
        var result = Matrix(rows: n, columns: n)
        for i in 0..<n { result[i, i] = 1 }
        return result
    }

    public subscript(row: Int, column: Int) -> Double {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }

    /// The transpose.
    public var transposed: Matrix {
        var result = Matrix(rows: columns, columns: rows)
        for i in 0..<rows { for j in 0..<columns { result.values[j * rows + i] = values[i * columns + j] } }
        return result
    }

    /// Row `i` as an array.
    public func row(_ i: Int) -> [Double] { Array(values[(i * columns)..<((i + 1) * columns)]) }

    /// Column `j` as an array.
    public func column(_ j: Int) -> [Double] { (0..<rows).map { values[$0 * columns + j] } }

    /// `op(a) · op(b)` by BLAS `dgemm`, where op transposes when asked.
    public static func product(_ a: Matrix, _ b: Matrix, transposeA: Bool = false, transposeB: Bool = false) -> Matrix {
        let m = transposeA ? a.columns : a.rows
        let k = transposeA ? a.rows : a.columns
        let kb = transposeB ? b.columns : b.rows
        let n = transposeB ? b.rows : b.columns
        precondition(k == kb, "Matrix.product: inner sizes \(k) and \(kb) differ")
        var result = Matrix(rows: m, columns: n)
        if m == 0 || n == 0 { return result }
        if k == 0 { return result }
        a.values.withUnsafeBufferPointer { pa in
            b.values.withUnsafeBufferPointer { pb in
                result.values.withUnsafeMutableBufferPointer { pc in
                    cblas_dgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
                                Int32(m), Int32(n), Int32(k), 1, pa.baseAddress, Int32(a.columns),
                                pb.baseAddress, Int32(b.columns), 0, pc.baseAddress, Int32(n))
                }
            }
        }
        return result
    }

    /// `self · other`.
    public static func * (lhs: Matrix, rhs: Matrix) -> Matrix { product(lhs, rhs) }

    /// Element-wise sum.
    public static func + (lhs: Matrix, rhs: Matrix) -> Matrix {
        precondition(lhs.rows == rhs.rows && lhs.columns == rhs.columns, "Matrix +: shapes differ")
        return Matrix(rows: lhs.rows, columns: lhs.columns, values: zip(lhs.values, rhs.values).map { $0 + $1 })
    }

    /// Every element times `scale`.
    public static func * (scale: Double, matrix: Matrix) -> Matrix {
        Matrix(rows: matrix.rows, columns: matrix.columns, values: matrix.values.map { $0 * scale })
    }
}
