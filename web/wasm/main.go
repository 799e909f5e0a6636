//go:build js && wasm

// Command wasm is the playground's WebAssembly entry point: the syscall/js
// glue over package play. Build it with GOOS=js GOARCH=wasm (see
// scripts/build-web.sh); it sets globalThis.harpe to an object with
//
//	call(name, argsJSON) → answerJSON       see play.Call
//	loadEncoding(name, Uint8Array) → answerJSON  see play.LoadEncoding
//
// then calls globalThis.harpeReady() if the page defined it, and waits.
package main

import (
	"syscall/js"

	"github.com/harpe-dev/harpe/web/play"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("call", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return `{"error":"call(name, argsJSON): two strings expected"}`
		}
		return play.Call(args[0].String(), args[1].String())
	}))
	api.Set("loadEncoding", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
			return `{"error":"loadEncoding(name, bytes): a string and a Uint8Array expected"}`
		}
		b := make([]byte, args[1].Get("length").Int())
		js.CopyBytesToGo(b, args[1])
		return play.LoadEncoding(args[0].String(), b)
	}))
	js.Global().Set("harpe", api)
	if ready := js.Global().Get("harpeReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
