package usage

// 2^63−1, the largest int: every bound below is worked from it by hand.
const maxInt = "9223372036854775807"
