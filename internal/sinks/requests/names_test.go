package requests

import "testing"

// TestReadingName checks which Go function names say the function reads, and which say it
// writes past a transport's verbs.
func TestReadingName(t *testing.T) {
	for name, want := range map[string]bool{
		"QueryPayment":                      true,
		"fetchSkipMeDB":                     true,
		"GetVideo":                          true,
		"searchOneMusicArtist":              true,
		"queryBaofuPaymentOrderForTimeout":  true,
		"lookupUser":                        true,
		"GetOrCreateUser":                   false, // two acts
		"fetchAndStore":                     false,
		"getaways":                          false, // a word, not a verb
		"CheckIn":                           false, // check is not a reading verb
		"CreateRefund":                      false,
		"TwitchGQLGetChapters":              false, // the verb is not first
		"GetPaymentLinkAndNotify":           false,
		"":                                  false,
		"listUnspentThenSendRawTransaction": false, // send is a writing verb
	} {
		if got := ReadingName(name); got != want {
			t.Errorf("ReadingName(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"createDiscovery":    true,
		"chargeCard":         true,
		"RefundOrder":        true,
		"PostAggregatePay":   false, // how it is sent
		"postPublicEnvelope": false,
		"doRequest":          false,
		"sendSigned":         false,
		"Do":                 false,
		"fetchSkipMeDB":      false,
		"processPayment":     true, // a business act, not a transport's
	} {
		if got := WritingName(name); got != want {
			t.Errorf("WritingName(%q) = %v, want %v", name, got, want)
		}
	}
}
