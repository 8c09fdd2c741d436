//! RFC 3492 Punycode encoding, the one copy: the host parser's shortcut for common
//! scripts (`super::idna`) and the build script (`build.rs`, which turns the list's
//! Unicode rules into their ASCII form) both use it. It uses nothing outside `std`, so
//! that `build.rs` can include it with `#[path]`.

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const DIGITS: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// RFC 3492 §6.1: the bias after a code point is encoded.
fn adapt(mut delta: u32, points: u32, first: bool) -> u32 {
    delta /= if first { 700 } else { 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + 38)
}

/// Encodes `label` (without the `xn--` prefix), giving each output character to `push`.
/// Returns `None` when a delta overflows `u32` (RFC 3492 §6.4), which labels of a few
/// hundred code points cannot reach; `push` has then been given part of the encoding.
pub(crate) fn encode(label: &[char], mut push: impl FnMut(char)) -> Option<()> {
    let mut basic = 0u32;
    for &c in label {
        if c.is_ascii() {
            push(c);
            basic += 1;
        }
    }
    if basic > 0 {
        push('-');
    }
    let digit = |d: u32| char::from(DIGITS[d as usize]);
    let (mut n, mut delta, mut bias) = (0x80u32, 0u32, 72u32);
    let mut handled = basic;
    let total = u32::try_from(label.len()).ok()?;
    while handled < total {
        // A code point not yet handled is left, so the minimum exists.
        let m = label.iter().map(|&c| c as u32).filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in label {
            let c = c as u32;
            if c < n {
                delta = delta.checked_add(1)?;
            } else if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        T_MIN
                    } else if k >= bias + T_MAX {
                        T_MAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n += 1;
    }
    Some(())
}
