// The balance plugin, after the FONIC app in seed 000: a SiriKit Intents extension on
// the classes generated at build time from balance.yaml (a link to
// definitions/balance.yaml, the YAML counterpart of its Intents.intentdefinition):
//   StatusIntent          "Zeige mein FONIC Konto": the balance and free units of the
//                         active contract, answered with one of five response codes
//   SwitchContractIntent  makes another contract active; "0176" matches two contracts,
//                         so the host asks which one (disambiguation)
//   TopUpIntent           tops up the balance; slow, so it reports progress
// BALANCE_LOGGED_OUT=1 makes it behave as if nobody had logged in (code userMissing).
// Sources/Plugins/BalanceSiriKit is the same app on the Xcode definition, with seed 000's
// handler as the seed writes it.
INExtensionMain(BalanceExtension.self)
