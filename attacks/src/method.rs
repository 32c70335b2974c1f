//! The [`SliderAttacks`] trait every attack method implements, the run-time
//! name of each method ([`Method`]), and [`dispatch!`](crate::dispatch) to
//! call code generic over the trait with a method chosen at run time.

use core::fmt;
use core::str::FromStr;

use crate::bitboard::Bitboard;
use crate::square::Square;

/// Sliding-piece attacks by one method.
///
/// "Attacks" include the first blocker in each direction, whatever its colour
/// (callers remove their own pieces to get moves). Implementors are
/// zero-sized types; all functions are associated functions so that generic
/// code is monomorphised and inlined, with no dispatch in the hot path.
pub trait SliderAttacks: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// The run-time name of this method.
    const METHOD: Method;

    /// The squares a rook on `sq` attacks, given the occupied squares.
    /// Whether `sq` itself is in `occupied` does not matter.
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard;

    /// The squares a bishop on `sq` attacks, given the occupied squares.
    /// Whether `sq` itself is in `occupied` does not matter.
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard;

    /// The squares a queen on `sq` attacks: rook and bishop attacks together.
    #[inline(always)]
    fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        Self::rook_attacks(sq, occupied) | Self::bishop_attacks(sq, occupied)
    }
}

macro_rules! methods {
    ($d:tt $(
        $(#[$cfg:meta])?
        $variant:ident => $ty:ident, $name:literal, [$($alias:literal),*], $doc:literal;
    )*) => {
        /// The run-time name of an attack method.
        ///
        /// Every variant exists in every build, so code matching on it compiles
        /// the same everywhere; [`Method::ALL`] and `FromStr` offer only the
        /// methods this build runs at full speed (`pext` needs BMI2).
        ///
        /// `Display` and `FromStr` use kebab-case names (`obstruction-difference`,
        /// `magic`, ...); `FromStr` also takes short aliases and ignores case.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Method {
            $(
                #[doc = $doc]
                $variant,
            )*
        }

        impl Method {
            /// Every method compiled into this build, in the order of the docs.
            pub const ALL: &'static [Method] = &[$($(#[$cfg])? Method::$variant,)*];

            /// The kebab-case name.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Method::$variant => $name,)*
                }
            }

            /// The short aliases `FromStr` accepts besides the name.
            pub const fn aliases(self) -> &'static [&'static str] {
                match self {
                    $(Method::$variant => &[$($alias),*],)*
                }
            }
        }

        /// Runs `$body` with the type alias `$A` bound to the attack method
        /// type named by the [`Method`] value `$method`.
        ///
        /// Each arm is a separate monomorphised instance: choosing the method
        /// costs one `match`, and the code inside runs without dynamic dispatch.
        ///
        /// ```
        /// use attacks::{dispatch, Bitboard, Method, SliderAttacks, Square};
        ///
        /// fn mobility<A: SliderAttacks>(occ: Bitboard) -> u32 {
        ///     A::queen_attacks(Square::D4, occ).count()
        /// }
        ///
        /// let method: Method = "obstruction-difference".parse().unwrap();
        /// assert_eq!(dispatch!(method, A => mobility::<A>(Bitboard::EMPTY)), 27);
        /// ```
        #[macro_export]
        macro_rules! dispatch {
            ($d method:expr, $d A:ident => $d body:expr) => {
                match $d method {
                    $($d crate::Method::$variant => {
                        #[allow(unused)]
                        type $d A = $d crate::$ty;
                        $d body
                    })*
                }
            };
        }
    };
}

methods! { $
    ObstructionDifference => ObstructionDifference, "obstruction-difference", ["od", "odiff", "infuehr"],
        "Obstruction Difference with Infuehr's `upper ^ (upper - ms1b(lower | 1))`.";
    ObstructionDifferenceHoffmann => ObstructionDifferenceHoffmann, "obstruction-difference-hoffmann", ["od-hoffmann", "hoffmann"],
        "Obstruction Difference as Hoffmann gave it: `2 * ls1b(upper) - ms1b(lower | 1)`.";
    Classical => Classical, "classical", ["classic", "rays"],
        "Classical ray attacks with a conditional bit scan per direction.";
    ClassicalBranchless => ClassicalBranchless, "classical-branchless", ["branchless"],
        "Classical ray attacks, branchless: a stop bit (bit 63 or bit 0) makes the scan total.";
    ClassicalZeroCount => ClassicalZeroCount, "classical-zero-count", ["zero-count", "zcnt"],
        "Classical ray attacks indexed by `tzcnt`/`lzcnt` into 65-entry ray tables.";
    ClassicalOneRun => ClassicalOneRun, "classical-one-run", ["one-run", "sherwin"],
        "Classical rook attacks in one run (Hyatt and Sherwin); bishops by branchless rays.";
    Sbamg => Sbamg, "sbamg", ["3cbn"],
        "Subtraction based attack mask generation, `o ^ (o - 3cbn)` with the outer squares set.";
    Hyperbola => Hyperbola, "hyperbola", ["hq", "hyperbola-quintessence"],
        "Hyperbola Quintessence: o^(o-2r) both ways by byte swap; ranks by table.";
    O2r => O2r, "o2r", ["o^(o-2r)", "subtracting-a-rook"],
        "o^(o-2r) on every line, both ways by bit reversal, as the seed page gives it.";
    Magic => Magic, "magic", ["fancy-magic"],
        "Fancy magic bitboards (baseline), tables generated at build time.";
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    Pext => Pext, "pext", ["bmi2"],
        "BMI2 `pext` indexed tables (baseline); offered only by builds for CPUs with BMI2.";
    Reference => Reference, "reference", ["ref", "slow"],
        "The slow ray-walking reference every other method is tested against.";
}

impl Default for Method {
    /// The method the engine and tools use unless told otherwise: the one
    /// that measured fastest on this CPU (in the `sliders` benchmark, perft
    /// and `borrow bench`). PEXT where the build has BMI2 and the CPU runs
    /// `pext` in hardware; fancy magic elsewhere.
    ///
    /// AMD CPUs before Zen 3 (families 0x17 and 0x18: Zen, Zen+, Zen 2,
    /// Hygon Dhyana) have BMI2 but run `pext` and `pdep` in microcode: on a
    /// Zen 2 EPYC, perft with `pext` ran at a third of `magic`'s speed
    /// (Kiwipete perft 5: 221 against 639 Mnps). The choice is made at run
    /// time from `cpuid`, since a binary built for BMI2 may run on either.
    fn default() -> Method {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        if !slow_pext() {
            return Method::Pext;
        }
        Method::Magic
    }
}

/// `true` on the CPU running this program if its `pext` and `pdep` are
/// microcoded (see [`microcoded_pext`]).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
fn slow_pext() -> bool {
    use core::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let vendor = [vendor.ebx, vendor.edx, vendor.ecx].map(u32::to_le_bytes);
    microcoded_pext(vendor.as_flattened(), __cpuid(1).eax)
}

/// `true` for the CPUs whose `pext` and `pdep` are microcoded: AMD (and
/// Hygon) families before 0x19 (Zen 3), given `cpuid`'s vendor string (leaf
/// 0) and its signature (leaf 1, `eax`).
#[cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "bmi2")),
    allow(dead_code)
)]
fn microcoded_pext(vendor: &[u8], signature: u32) -> bool {
    // The base family, plus the extended family when the base is 0xF.
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    (vendor == b"AuthenticAMD" || vendor == b"HygonGenuine") && family < 0x19
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing an unknown attack-method name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMethodError {
    name: String,
}

impl fmt::Display for ParseMethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.eq_ignore_ascii_case("pext") || self.name.eq_ignore_ascii_case("bmi2") {
            return f.write_str(
                "attack method 'pext' is not in this build: it needs an x86-64 target with BMI2 \
                 (build with -C target-cpu=native on such a CPU)",
            );
        }
        write!(
            f,
            "unknown attack method '{}'; known methods (aliases in brackets):",
            self.name
        )?;
        for (i, m) in Method::ALL.iter().enumerate() {
            write!(f, "{}{}", if i == 0 { " " } else { ", " }, m.name())?;
            if !m.aliases().is_empty() {
                write!(f, " ({})", m.aliases().join(", "))?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ParseMethodError {}

impl Method {
    /// Methods named on a command line: `all`, or names and aliases
    /// separated by commas (`magic,sbamg`), in the order given.
    pub fn parse_list(s: &str) -> Result<Vec<Method>, ParseMethodError> {
        if s.trim().eq_ignore_ascii_case("all") {
            return Ok(Method::ALL.to_vec());
        }
        s.split(',').map(str::parse).collect()
    }
}

impl FromStr for Method {
    type Err = ParseMethodError;

    fn from_str(s: &str) -> Result<Method, ParseMethodError> {
        let s = s.trim();
        Method::ALL
            .iter()
            .copied()
            .find(|m| {
                m.name().eq_ignore_ascii_case(s)
                    || m.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
            })
            .ok_or_else(|| ParseMethodError { name: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_is_counted_microcoded_on_amd_before_zen_3_only() {
        // `cpuid` leaf 1 signatures of real CPUs.
        let amd = b"AuthenticAMD";
        assert!(microcoded_pext(amd, 0x0080_0F12)); // Zen (EPYC Naples), family 0x17
        assert!(microcoded_pext(amd, 0x0083_0F10)); // Zen 2 (EPYC Rome), family 0x17
        assert!(microcoded_pext(b"HygonGenuine", 0x0090_0F01)); // Dhyana, family 0x18
        assert!(!microcoded_pext(amd, 0x00A0_0F11)); // Zen 3 (EPYC Milan), family 0x19
        assert!(!microcoded_pext(amd, 0x00A1_0F11)); // Zen 4 (EPYC Genoa), family 0x19
        assert!(!microcoded_pext(amd, 0x00B0_0F00)); // Zen 5, family 0x1A
        assert!(!microcoded_pext(b"GenuineIntel", 0x0005_06E3)); // Skylake, family 6
        assert!(!microcoded_pext(b"GenuineIntel", 0x0008_06C1)); // Tiger Lake
    }

    #[test]
    fn the_default_method_is_in_this_build() {
        assert!(Method::ALL.contains(&Method::default()));
        assert_eq!(Method::default().name().parse(), Ok(Method::default()));
    }

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
            assert_eq!(m.name().to_uppercase().parse::<Method>(), Ok(m));
            assert!(seen.insert(m.name()));
            for a in m.aliases() {
                assert_eq!(a.parse::<Method>(), Ok(m));
                assert!(seen.insert(a));
            }
        }
    }

    #[test]
    fn lists_are_all_or_names() {
        assert_eq!(Method::parse_list("all"), Ok(Method::ALL.to_vec()));
        assert_eq!(Method::parse_list(" ALL "), Ok(Method::ALL.to_vec()));
        assert_eq!(
            Method::parse_list("magic,reference"),
            Ok(vec![Method::Magic, Method::Reference])
        );
        let err = Method::parse_list("magic,bogus").unwrap_err().to_string();
        assert!(err.contains("bogus"), "{err}");
    }

    #[test]
    fn unknown_name_lists_known_ones() {
        let err = "bogus".parse::<Method>().unwrap_err().to_string();
        assert!(err.contains("bogus") && err.contains("obstruction-difference"));
    }

    #[test]
    fn dispatch_reaches_the_named_type() {
        for &m in Method::ALL {
            assert_eq!(dispatch!(m, A => A::METHOD), m);
        }
    }
}
