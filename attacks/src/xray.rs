//! X-ray attacks. PLACEHOLDER: to be written.
