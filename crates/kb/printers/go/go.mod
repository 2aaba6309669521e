module errdex.dev/kb-printer

go 1.19
