package tokenize_test

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

func ExampleEstimateTokens() {
	// 9 words and a period are 10 pieces; 44 characters / 4 = 11.
	fmt.Println(tokenize.EstimateTokens("The quick brown fox jumps over the lazy dog."))
	// A UUID: 9 pieces plus 2 and 4 for its hex runs of 8 and 12.
	fmt.Println(tokenize.EstimateTokens("123e4567-e89b-12d3-a456-426614174000"))
	// Output:
	// 11
	// 15
}
