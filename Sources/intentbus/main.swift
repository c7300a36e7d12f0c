import IntentBus
import PluginHost
print("todo")
