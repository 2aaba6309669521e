use super::*;

#[test]
fn newlines_are_found_as_a_byte_search_finds_them() {
    // Newlines at every offset of every word, next to bytes one bit
    // away and to high bytes (carries in the word test).
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for len in 0..200 {
        for _ in 0..20 {
            let chunk: Vec<u8> = (0..len)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    [b'\n', b'\n', 0x0b, 0x8a, 0x0a ^ 0x80, b'x', 0, 0xff][(rng % 8) as usize]
                })
                .collect();
            let want: Vec<usize> = memchr::memchr_iter(b'\n', &chunk).collect();
            assert_eq!(Newlines::new(&chunk).collect::<Vec<_>>(), want, "{chunk:?}");
        }
    }
}

#[test]
fn equal_bits_agree_with_the_byte_definition() {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..10_000 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Bytes drawn near the one sought, so borrows and carries occur.
        let bytes: [u8; 16] = std::array::from_fn(|i| {
            [b'\n', 0x0b, 0x09, 0x8a, 0xff, 0, b'\n', b'a'][((rng >> (3 * i)) % 8) as usize]
        });
        let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
        let want = bytes
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &c)| m | u64::from(c == b'\n') << i);
        assert_eq!(equal_bits16_swar(lo, hi, b'\n'), want, "{bytes:?}");
        assert_eq!(equal_bits16(lo, hi, b'\n'), want, "{bytes:?}");
    }
}

#[test]
fn find_byte_finds_the_first_one_as_a_loop_would() {
    // Every position in texts of every length up to 20, with bytes
    // just around the one sought (borrows in the eight-byte test).
    for c in [b' ', b'=', 0u8, 0x80, 0xff] {
        for len in 0..20 {
            for at in 0..=len {
                for filler in [c.wrapping_add(1), c.wrapping_sub(1), 0x80, b'a'] {
                    if filler == c {
                        continue;
                    }
                    let mut b = vec![filler; len];
                    if at < len {
                        b[at] = c;
                        // A second one later must not be reported.
                        if at + 3 < len {
                            b[at + 3] = c;
                        }
                    }
                    let want = b.iter().position(|&x| x == c);
                    assert_eq!(find_byte(&b, c), want, "{c:#x} in {b:?}");
                }
            }
        }
    }
}

#[test]
fn word_bits_agree_with_the_byte_definition() {
    for base in (0..256).step_by(8) {
        for shift in 0..8u32 {
            let bytes: [u8; 8] =
                std::array::from_fn(|i| ((base + i * 37 + shift as usize * 11) % 256) as u8);
            let got = word_bits(u64::from_le_bytes(bytes));
            for (i, &c) in bytes.iter().enumerate() {
                assert_eq!(got >> i & 1 == 1, is_word(c), "byte {c:#x}");
            }
        }
    }
    for c in 0..=255u8 {
        let got = word_bits(u64::from(c) << 24);
        assert_eq!(got >> 3 & 1 == 1, is_word(c), "byte {c:#x}");
    }
}

#[test]
fn words_split_like_the_byte_definition() {
    let texts = [
        "",
        "x",
        "  a bc_d: e9 ",
        "überall gut",
        &"word ".repeat(40),
        &format!("{}b c", "a".repeat(130)),
    ];
    for text in texts {
        let mut p = Padded::default();
        p.set(text.as_bytes());
        let mut masks = Vec::new();
        word_masks(&p, &mut masks);
        let mut got = Vec::new();
        for_each_word(&masks, |s, e| got.push((s, e)));
        let b = text.as_bytes();
        let mut want = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if is_word(b[i]) {
                let s = i;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                want.push((s, i));
            } else {
                i += 1;
            }
        }
        assert_eq!(got, want, "{text:?}");
    }
}

#[test]
fn sixteen_byte_masks_agree_with_eight_byte_ones() {
    for seed in 0..4096u64 {
        let lo = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let hi = lo.rotate_left(29) ^ seed.wrapping_mul(0xff51_afd7_ed55_8ccd);
        assert_eq!(word_bits16(lo, hi), word_bits(lo) | word_bits(hi) << 8);
    }
    for c in 0..=255u8 {
        let w = u64::from_le_bytes([c; 8]);
        assert_eq!(
            word_bits16(w, w),
            word_bits(w) | word_bits(w) << 8,
            "{c:#x}"
        );
    }
}

#[test]
fn find_byte_finds_the_first_in_range() {
    let mut p = Padded::default();
    let text = b"abc:def:ghi jklmnopqrstuvwxyz:";
    p.set(text);
    for from in 0..text.len() {
        for last in from..text.len() {
            for byte in [b':', b'a', b'z', b' ', 0] {
                let want = (from..=last).find(|&i| text[i] == byte);
                assert_eq!(p.find_byte(byte, from, last), want, "{byte} {from} {last}");
            }
        }
    }
}

#[test]
fn low_mask_of_every_width() {
    for n in 0..=8 {
        let want = if n == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * n)) - 1
        };
        assert_eq!(low_mask(n), want, "{n}");
    }
}

#[test]
fn padded_loads_and_literal_compare() {
    let mut p = Padded::default();
    p.set(b"hello, world");
    assert_eq!(p.load(0) & 0xff, u64::from(b'h'));
    assert_eq!(p.load_n(7, 5), load_slice(b"world", 0));
    assert_eq!(p.load(12), 0);
    assert_eq!(p.load_before(5), load_slice(b"\0\0\0hello", 0));
    let lit = b"world";
    assert!(p.has_at(7, 5, &literal_words(lit)));
    assert!(!p.has_at(8, 5, &literal_words(lit)));
    let lit = b"hello, world";
    assert!(p.has_at(0, 12, &literal_words(lit)));
    assert!(!p.has_at(1, 12, &literal_words(lit)));
    assert_eq!(high_mask(2), 0xffff << 48);
    assert_eq!(high_mask(8), u64::MAX);
    assert_eq!(low_mask(3), 0xff_ffff);
}
