module rowkey/struct_key_vectors

go 1.21

require github.com/google/orderedcode v0.0.1
