//! Tests of the .npy format: aligned headers, every block layout round-trips, numpy's variants
//! read, bad files named.

use super::header::ALIGN;
use super::*;

#[test]
fn header_is_aligned_and_parses_back() {
    for shape in [vec![3, 2], vec![10_000_000, 50], vec![7]] {
        let h = header(&shape);
        assert_eq!(h.len() % ALIGN, 0, "{shape:?}");
        assert_eq!(*h.last().unwrap(), b'\n');
        let p = parse_header(&h).unwrap();
        assert_eq!(p.shape, shape);
        assert_eq!(p.dtype, Dtype::F8);
        assert!(!p.fortran_order);
        assert_eq!(p.data_offset, h.len());
    }
    let h = header(&[3, 2]);
    let dict = std::str::from_utf8(&h[10..]).unwrap();
    let fixed = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }";
    assert_eq!(h.len(), 128);
    assert!(dict.starts_with(fixed));
    assert!(dict[fixed.len()..dict.len() - 1].bytes().all(|b| b == b' '));
    assert!(String::from_utf8_lossy(&header(&[7])).contains("'shape': (7,), }"));
}

fn raw(descr: &str, fortran: bool, shape: &str, values: &[u8]) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&[1, 0]);
    let dict = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}\n",
        if fortran { "True" } else { "False" }
    );
    h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.extend_from_slice(values);
    h
}

#[test]
fn what_the_writer_writes_the_reader_reads_in_every_block_layout() {
    let dir = tempfile::tempdir().unwrap();
    // Three 256 KiB blocks, the last one partial; rows shorter and longer than a cache line.
    for d in [7, 19] {
        the_reader_reads_what_the_writer_wrote(dir.path(), 10_000, d);
    }
    let vpath = dir.path().join("y.npy");
    let mut w = Writer::create(&vpath, &[5]).unwrap();
    w.write(&[0.0, 1.0, 1.0, 0.0, 1.0]).unwrap();
    w.finish().unwrap();
    assert_eq!(read_vector(&vpath).unwrap(), [0.0, 1.0, 1.0, 0.0, 1.0]);
    // A vector of three 256 KiB blocks and a partial one, as float64 and as int64.
    let long: Vec<f64> = (0..100_003).map(|k| (k as f64 * 0.61).cos()).collect();
    let mut w = Writer::create(&vpath, &[long.len()]).unwrap();
    w.write(&long).unwrap();
    w.finish().unwrap();
    let read = read_vector(&vpath).unwrap();
    assert!(read
        .iter()
        .zip(&long)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(read.len(), long.len());
    let ints: Vec<u8> = (0..70_001i64).flat_map(|k| (k - 5).to_le_bytes()).collect();
    std::fs::write(&vpath, raw("<i8", false, "(70001,)", &ints)).unwrap();
    let read = read_vector(&vpath).unwrap();
    assert_eq!(
        (read.len(), read[0], read[70_000]),
        (70_001, -5.0, 69_995.0)
    );
}

/// An `n` × `d` matrix written in uneven pieces reads back bit for bit.
fn the_reader_reads_what_the_writer_wrote(dir: &std::path::Path, n: usize, d: usize) {
    let values: Vec<f64> = (0..n * d)
        .map(|k| (k as f64 * 0.37).sin() * 1e3 + 1e-300 * k as f64)
        .collect();
    let path = dir.join(format!("x{d}.npy"));
    let mut w = Writer::create(&path, &[n, d]).unwrap();
    // Uneven pieces, as the generator's chunks can be.
    for piece in values.chunks(333) {
        w.write(piece).unwrap();
    }
    w.finish().unwrap();
    let x = read_matrix(&path).unwrap();
    assert_eq!((x.nrows(), x.ncols()), (n, d));
    for i in 0..n {
        for j in 0..d {
            assert_eq!(
                x[(i, j)].to_bits(),
                values[i * d + j].to_bits(),
                "({i}, {j}) of {d}"
            );
        }
    }
    let h = read_header(&path).unwrap();
    assert_eq!(h.data_offset % ALIGN, 0);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len() as usize,
        h.data_offset + 8 * n * d
    );
}

#[test]
fn reads_fortran_order_and_int64_as_numpy_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    // [[1, 2, 3], [4, 5, 6]] stored column by column.
    let vals: Vec<u8> = [1i64, 4, 2, 5, 3, 6]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let path = dir.path().join("f.npy");
    std::fs::write(&path, raw("<i8", true, "(2, 3)", &vals)).unwrap();
    let x = read_matrix(&path).unwrap();
    assert_eq!(x[(0, 2)], 3.0);
    assert_eq!(x[(1, 0)], 4.0);
    assert_eq!(x[(1, 2)], 6.0);
}

#[test]
fn bad_files_name_the_problem_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let check = |name: &str, bytes: Vec<u8>, wants: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let e = read_matrix(&path).unwrap_err();
        let text = e.to_string();
        assert_eq!(e.exit_code(), 2);
        assert!(text.contains(name) && text.contains(wants), "{text}");
        assert!(text.contains("numpy.save"), "{text}");
    };
    check("short.npy", raw("<f8", false, "(2, 3)", &[0; 40]), "needs");
    check("f4.npy", raw("<f4", false, "(2, 3)", &[0; 24]), "'<f4'");
    check(
        "cube.npy",
        raw("<f8", false, "(1, 1, 1)", &[0; 8]),
        "two dimensions",
    );
    check("text.npy", b"x1,x2\n1,2\n".to_vec(), "magic");
    check("empty.npy", Vec::new(), "magic");
    let missing = read_matrix(&dir.path().join("missing.npy")).unwrap_err();
    assert!(missing.to_string().contains("cannot open"), "{missing}");
}

#[test]
fn parses_numpy_variants_and_rejects_the_rest() {
    // numpy writes this for np.save(f, np.arange(6, dtype=np.int64).reshape(2, 3), fortran order)
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&[1, 0]);
    let dict = b"{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }\n";
    h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    h.extend_from_slice(dict);
    let p = parse_header(&h).unwrap();
    assert_eq!(
        (p.dtype, p.fortran_order, p.shape),
        (Dtype::I8, true, vec![2, 3])
    );

    let mut v2 = MAGIC.to_vec();
    v2.extend_from_slice(&[2, 0]);
    v2.extend_from_slice(&(dict.len() as u32).to_le_bytes());
    v2.extend_from_slice(dict);
    assert_eq!(parse_header(&v2).unwrap().data_offset, 12 + dict.len());

    let f4 = raw("<f4", false, "(2,)", &[]);
    assert!(parse_header(&f4).unwrap_err().contains("'<f4'"));
    assert!(parse_header(b"col1,col2\n1,2\n")
        .unwrap_err()
        .contains("magic"));
    let cut = &header(&[5, 5])[..30];
    assert!(parse_header(cut).unwrap_err().contains("cut short"));
}
