module example.com/usermod

go 1.26.8

require (
	github.com/goamp/goamp v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/vulkan-go/vulkan v0.0.0-20221209234627-c0a353ae26c8 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/goamp/goamp => ../..

tool github.com/goamp/goamp/cmd/ampgen
