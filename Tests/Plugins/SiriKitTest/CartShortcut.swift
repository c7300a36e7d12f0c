//
/**
ShowMyCartShortCut
@Category Webkul
@author Webkul <support@webkul.com>
FileName: CartShortcut.swift
Copyright (c) 2010-2018 Webkul Software Private Limited (https://webkul.com)
@license   https://store.webkul.com/license.html
*/

// Seed 004's CartShortcut.swift as the seed writes it, with the lines that need UIKit
// and CoreSpotlight removed (neither exists here): `import UIKit`, `import CoreSpotlight`,
// `import MobileCoreServices`, the search attributes and the thumbnail. The thumbnail
// parameter stays, as `Data?` instead of UIKit's `UIImage?`.
import Foundation
import Intents



public let kNewArticleActivityType = NetworkManager.sharedInstance.getBundleID()
@available(iOS 12.0, *)
public class CartShortcut{
    public let title: String
    public let content: String
    public let published: Bool
    
    public static func newArticleShortcut(with thumbnail: Data?) -> NSUserActivity {
        let activity = NSUserActivity(activityType: kNewArticleActivityType)
       
        activity.persistentIdentifier = NSUserActivityPersistentIdentifier(kNewArticleActivityType)
        activity.isEligibleForSearch = true
        activity.isEligibleForPrediction = true
        // Title
        activity.title = "welocometo".localised+" "+"applicationname".localised
        // Suggested Phrase
        activity.suggestedInvocationPhrase = "Show My Cart"
        return activity
    }
    

    
    // MARK: - Init
    public init(title: String, content: String, published: Bool) {
        self.title = title
        self.content = content
        self.published = published
    }
    
   
}
