import CLAPACK

/// A LAPACK routine that reported failure (its `info` argument).
public struct LinearAlgebraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The LAPACK routine.
    public var routine: String
    /// Its `info`: negative = argument −info was illegal, positive = no convergence.
    public var info: Int32
    public var description: String { "\(routine) failed (info \(info)): \(info < 0 ? "illegal argument \(-info)" : "no convergence")" }
}

/// The eigendecomposition of a symmetric matrix: `A = V · diag(values) · Vᵀ`.
public struct SymmetricEigen: Sendable {
    /// Eigenvalues in ascending order (LAPACK `dsyev`).
    public var values: [Double]
    /// The eigenvectors as the columns of an orthogonal matrix, in the order of ``values``.
    public var vectors: Matrix

    /// Decomposes `matrix` (only its lower triangle is read) with LAPACK `dsyev`.
    public init(_ matrix: Matrix) throws {
        precondition(matrix.rows == matrix.columns, "SymmetricEigen: \(matrix.rows)×\(matrix.columns) is not square")
        let n = matrix.rows
        var a = matrix.values
        var w = [Double](repeating: 0, count: n)
        if n > 0 {
            let info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "L")), Int32(n), &a, Int32(n), &w)
            if info != 0 { throw LinearAlgebraError(routine: "dsyev", info: info) }
        }
        values = w
        vectors = Matrix(rows: n, columns: n, values: a)
    }
}

/// The thin singular value decomposition `A = U · diag(s) · Vᵀ` (LAPACK `dgesvd`), singular values descending.
public struct SingularValueDecomposition: Sendable {
    /// m × k left singular vectors, k = min(m, n).
    public var u: Matrix
    /// The k singular values, descending.
    public var singularValues: [Double]
    /// k × n: the right singular vectors as rows.
    public var vt: Matrix

    /// Decomposes `matrix` with LAPACK `dgesvd` (economy size).
    public init(_ matrix: Matrix) throws {
        let m = matrix.rows, n = matrix.columns, k = min(m, n)
        var a = matrix.values
        var s = [Double](repeating: 0, count: k)
        var uValues = [Double](repeating: 0, count: m * k)
        var vtValues = [Double](repeating: 0, count: k * n)
        var superb = [Double](repeating: 0, count: max(k - 1, 1))
        if k > 0 {
            let info = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "S")), Int8(UInt8(ascii: "S")), Int32(m), Int32(n),
                                      &a, Int32(n), &s, &uValues, Int32(k), &vtValues, Int32(n), &superb)
            if info != 0 { throw LinearAlgebraError(routine: "dgesvd", info: info) }
        }
        u = Matrix(rows: m, columns: k, values: uValues)
        singularValues = s
        vt = Matrix(rows: k, columns: n, values: vtValues)
    }
}
