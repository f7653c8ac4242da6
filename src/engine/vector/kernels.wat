;; Distance kernels of the vector store in WebAssembly SIMD (128-bit). Offsets are byte offsets
;; into this module's memory; `n` counts f32 components (dot, l2) or u32 words (hamming).
;; Compiled to kernels-wasm.ts by scripts/build-kernels.mjs; kernels.ts falls back to TypeScript
;; where WebAssembly SIMD is not available.
(module
  (memory (export "memory") 1)

  ;; Σ a[i] × b[i]
  (func $dot (export "dot") (param $a i32) (param $b i32) (param $n i32) (result f32)
    (local $i i32) (local $end8 i32) (local $end4 i32) (local $end i32)
    (local $x v128) (local $y v128) (local $s f32)
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (local.set $end8 (i32.and (local.get $end) (i32.const -32)))
    (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
    (block $done8
      (loop $loop8
        (br_if $done8 (i32.ge_u (local.get $i) (local.get $end8)))
        (local.set $x (f32x4.add (local.get $x)
          (f32x4.mul (v128.load (i32.add (local.get $a) (local.get $i))) (v128.load (i32.add (local.get $b) (local.get $i))))))
        (local.set $y (f32x4.add (local.get $y)
          (f32x4.mul (v128.load offset=16 (i32.add (local.get $a) (local.get $i))) (v128.load offset=16 (i32.add (local.get $b) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $loop8)))
    (block $done4
      (loop $loop4
        (br_if $done4 (i32.ge_u (local.get $i) (local.get $end4)))
        (local.set $x (f32x4.add (local.get $x)
          (f32x4.mul (v128.load (i32.add (local.get $a) (local.get $i))) (v128.load (i32.add (local.get $b) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $loop4)))
    (local.set $x (f32x4.add (local.get $x) (local.get $y)))
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $x)) (f32x4.extract_lane 1 (local.get $x)))
      (f32.add (f32x4.extract_lane 2 (local.get $x)) (f32x4.extract_lane 3 (local.get $x)))))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $s (f32.add (local.get $s)
          (f32.mul (f32.load (i32.add (local.get $a) (local.get $i))) (f32.load (i32.add (local.get $b) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $tail)))
    (local.get $s))

  ;; Σ (a[i] − b[i])²
  (func (export "l2") (param $a i32) (param $b i32) (param $n i32) (result f32)
    (local $i i32) (local $end4 i32) (local $end i32)
    (local $x v128) (local $d v128) (local $s f32) (local $e f32)
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
    (block $done4
      (loop $loop4
        (br_if $done4 (i32.ge_u (local.get $i) (local.get $end4)))
        (local.set $d (f32x4.sub (v128.load (i32.add (local.get $a) (local.get $i))) (v128.load (i32.add (local.get $b) (local.get $i)))))
        (local.set $x (f32x4.add (local.get $x) (f32x4.mul (local.get $d) (local.get $d))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $loop4)))
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $x)) (f32x4.extract_lane 1 (local.get $x)))
      (f32.add (f32x4.extract_lane 2 (local.get $x)) (f32x4.extract_lane 3 (local.get $x)))))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $e (f32.sub (f32.load (i32.add (local.get $a) (local.get $i))) (f32.load (i32.add (local.get $b) (local.get $i)))))
        (local.set $s (f32.add (local.get $s) (f32.mul (local.get $e) (local.get $e))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $tail)))
    (local.get $s))

  ;; dot products of the query (at $q) with `count` vectors of `n` floats: the slots (i32 each)
  ;; are at $slots, vector s starts at $base + s × $stride (bytes); the f32 results go to $out.
  ;; Four vectors at a time: their loads interleave, so that the memory misses of vectors spread
  ;; over the slab overlap instead of following one another.
  (func (export "dotMany") (param $q i32) (param $base i32) (param $stride i32) (param $n i32)
    (param $slots i32) (param $count i32) (param $out i32)
    (local $k i32) (local $i i32) (local $end4 i32) (local $end i32)
    (local $a0 i32) (local $a1 i32) (local $a2 i32) (local $a3 i32)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $qv v128)
    (local $s0 f32) (local $s1 f32) (local $s2 f32) (local $s3 f32) (local $qs f32)
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
    (block $quads
      (loop $quad
        (br_if $quads (i32.gt_u (i32.add (local.get $k) (i32.const 4)) (local.get $count)))
        (local.set $a0 (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))) (local.get $stride))))
        (local.set $a1 (i32.add (local.get $base) (i32.mul (i32.load offset=4 (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))) (local.get $stride))))
        (local.set $a2 (i32.add (local.get $base) (i32.mul (i32.load offset=8 (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))) (local.get $stride))))
        (local.set $a3 (i32.add (local.get $base) (i32.mul (i32.load offset=12 (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))) (local.get $stride))))
        (local.set $x0 (v128.const i32x4 0 0 0 0))
        (local.set $x1 (v128.const i32x4 0 0 0 0))
        (local.set $x2 (v128.const i32x4 0 0 0 0))
        (local.set $x3 (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (block $done4
          (loop $loop4
            (br_if $done4 (i32.ge_u (local.get $i) (local.get $end4)))
            (local.set $qv (v128.load (i32.add (local.get $q) (local.get $i))))
            (local.set $x0 (f32x4.add (local.get $x0) (f32x4.mul (local.get $qv) (v128.load (i32.add (local.get $a0) (local.get $i))))))
            (local.set $x1 (f32x4.add (local.get $x1) (f32x4.mul (local.get $qv) (v128.load (i32.add (local.get $a1) (local.get $i))))))
            (local.set $x2 (f32x4.add (local.get $x2) (f32x4.mul (local.get $qv) (v128.load (i32.add (local.get $a2) (local.get $i))))))
            (local.set $x3 (f32x4.add (local.get $x3) (f32x4.mul (local.get $qv) (v128.load (i32.add (local.get $a3) (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $loop4)))
        (local.set $s0 (f32.add (f32.add (f32x4.extract_lane 0 (local.get $x0)) (f32x4.extract_lane 1 (local.get $x0)))
          (f32.add (f32x4.extract_lane 2 (local.get $x0)) (f32x4.extract_lane 3 (local.get $x0)))))
        (local.set $s1 (f32.add (f32.add (f32x4.extract_lane 0 (local.get $x1)) (f32x4.extract_lane 1 (local.get $x1)))
          (f32.add (f32x4.extract_lane 2 (local.get $x1)) (f32x4.extract_lane 3 (local.get $x1)))))
        (local.set $s2 (f32.add (f32.add (f32x4.extract_lane 0 (local.get $x2)) (f32x4.extract_lane 1 (local.get $x2)))
          (f32.add (f32x4.extract_lane 2 (local.get $x2)) (f32x4.extract_lane 3 (local.get $x2)))))
        (local.set $s3 (f32.add (f32.add (f32x4.extract_lane 0 (local.get $x3)) (f32x4.extract_lane 1 (local.get $x3)))
          (f32.add (f32x4.extract_lane 2 (local.get $x3)) (f32x4.extract_lane 3 (local.get $x3)))))
        (block $tdone
          (loop $tail
            (br_if $tdone (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $qs (f32.load (i32.add (local.get $q) (local.get $i))))
            (local.set $s0 (f32.add (local.get $s0) (f32.mul (local.get $qs) (f32.load (i32.add (local.get $a0) (local.get $i))))))
            (local.set $s1 (f32.add (local.get $s1) (f32.mul (local.get $qs) (f32.load (i32.add (local.get $a1) (local.get $i))))))
            (local.set $s2 (f32.add (local.get $s2) (f32.mul (local.get $qs) (f32.load (i32.add (local.get $a2) (local.get $i))))))
            (local.set $s3 (f32.add (local.get $s3) (f32.mul (local.get $qs) (f32.load (i32.add (local.get $a3) (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $tail)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2))) (local.get $s0))
        (f32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2))) (local.get $s1))
        (f32.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2))) (local.get $s2))
        (f32.store offset=12 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2))) (local.get $s3))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $quad)))
    (block $done
      (loop $loop
        (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (call $dot (local.get $q)
            (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))) (local.get $stride)))
            (local.get $n)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $loop))))

  ;; differing bits of n u32 words
  (func (export "hamming") (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $bits i32)
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $loop
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $bits (i32.add (local.get $bits)
          (i32.popcnt (i32.xor (i32.load (i32.add (local.get $a) (local.get $i))) (i32.load (i32.add (local.get $b) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $loop)))
    (local.get $bits))
)
