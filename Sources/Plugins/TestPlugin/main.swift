import IntentBus
print("todo")
