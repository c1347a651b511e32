//! Every line of the core that the compiler cannot check, behind functions that can be called
//! safely: vector instructions chosen at run time ([`widest`], [`avx2_or_baseline`]), columns
//! that several threads write ([`SharedColumns`], whose one method keeps the caller's promise
//! explicit), the kernel's huge pages ([`huge_pages`]) and whether a process exists on a Unix
//! without /proc ([`process_exists`]). The crate denies `unsafe_code` everywhere else.

use faer::Mat;

/// A computation written once and compiled for several instruction sets: `run::<true>` runs
/// only where the CPU has fused multiply-adds and may use them, `run::<false>` may not. An
/// implementation marks `run` `#[inline(always)]`, so that it is compiled inside the function
/// enabling the CPU's features that calls it.
pub trait Kernel {
    /// What the computation returns.
    type Output;
    /// The computation, with or without fused multiply-adds.
    fn run<const FMA: bool>(self) -> Self::Output;
}

/// `kernel` on the widest vector instructions the CPU has: AVX-512, else AVX2 with FMA (both
/// with fused multiply-adds), else the baseline without them.
pub fn widest<K: Kernel>(kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has the features the function is compiled for, checked above.
            return unsafe { avx512(kernel) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { avx2_fma(kernel) };
        }
    }
    kernel.run::<false>()
}

/// `kernel` without fused multiply-adds, compiled for AVX2 where the CPU has it (the same bits
/// as the baseline: only the vector width differs).
pub fn avx2_or_baseline<K: Kernel>(kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked on the line above.
        return unsafe { avx2(kernel) };
    }
    kernel.run::<false>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn avx512<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<true>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn avx2_fma<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<true>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<false>()
}

/// Whether process `id` exists, by `kill(id, 0)` (signal 0 sends nothing); EPERM means it
/// exists but belongs to another user.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn process_exists(id: libc::pid_t) -> bool {
    // SAFETY: signal 0 sends nothing; it only checks that the process exists.
    unsafe { libc::kill(id, 0) == 0 }
    || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// A column-major matrix's first element, column stride and the columns its allocation has
/// room for, for threads that each write their own elements through raw pointers: the .npy
/// reader's blocks of rows, the design fill's columns. Writing through it is the caller's
/// promise that no two threads write one element and that nothing reads an element before it
/// is written.
#[derive(Clone, Copy)]
pub struct SharedColumns(*mut f64, isize, usize);

impl SharedColumns {
    /// The columns of `x`, whose allocation has room for `columns` columns (as made by
    /// `Mat::with_capacity(rows, columns)`).
    pub fn of(x: &mut Mat<f64>, columns: usize) -> Self {
        SharedColumns(x.as_ptr_mut(), x.col_stride(), columns)
    }

    /// The first element of column `j`; a column past the allocation's room panics.
    ///
    /// # Safety
    /// The room given to [`Self::of`] is the allocation's.
    pub unsafe fn column(&self, j: usize) -> *mut f64 {
        assert!(
            j < self.2,
            "column {j} of a matrix with room for {}",
            self.2
        );
        // SAFETY: j is within the room checked above, and the caller vouches that the room is
        // the allocation's, so the offset stays inside it.
        unsafe { self.0.offset(j as isize * self.1) }
    }
}

// SAFETY: the threads that share it write disjoint elements (see the type's documentation).
unsafe impl Send for SharedColumns {}
// SAFETY: as for Send: no two threads write the same element, and none reads another's.
unsafe impl Sync for SharedColumns {}

/// Ask the kernel to back the allocation of `x` (room for `cols` columns) with 2 MiB pages where
/// it can: a fresh matrix of hundreds of megabytes otherwise takes a page fault and a zeroed
/// page for every 4 KiB of it on first touch. Only advice: nothing changes if the kernel
/// declines (or is not Linux). Used where one thread's writes fill whole pages in turn (the
/// `.npy` reader); the design fill, whose threads write neighbouring columns, measured slower
/// with it and does without.
pub fn huge_pages(x: &mut Mat<f64>, cols: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = x.as_ptr_mut() as usize;
        let bytes = x.col_stride().max(0) as usize * cols * 8;
        let (from, to) = (
            (start + HUGE - 1) & !(HUGE - 1),
            (start + bytes) & !(HUGE - 1),
        );
        if to > from {
            // SAFETY: [from, to) lies inside the matrix's allocation; MADV_HUGEPAGE changes no
            // contents and is only advice.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (x, cols);
}
