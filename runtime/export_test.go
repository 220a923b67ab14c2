package runtime

// RecordThroughputForTest folds a measurement into the throughput of a job key, as
// runBlocks does, so that the tests of the split can set the shares.
var RecordThroughputForTest = recordThroughput
