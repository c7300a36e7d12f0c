import Foundation

/// The standard-domain intents SiriKit knows without a definition file, built in: a
/// plugin that lists one of them in `IntentsSupported` and declares it `legacy` gets
/// the parameters and response codes below. They are written in the definition format
/// itself and decoded by the same loader, so docs/definitions.md describes them too.
///
/// Each keeps its own response-code numbering, as Apple's `…IntentResponseCode`
/// enums do (`INSendMessageIntentResponseCode.failureMessageServiceNotAvailable = 6`).
package enum StandardIntents {
    /// The name diagnostics give the built-in file.
    package static let fileName = "<standard intents>"

    /// Every built-in standard intent, by name. Decoded once, on first use.
    package static let definitions: [String: IntentDefinition] = {
        let result = DefinitionLoader.decode(text: yaml, file: fileName, standard: true)
        precondition(result.errors.isEmpty, "built-in standard intents are invalid:\n\(result.errors.map(\.description).joined(separator: "\n"))")
        return Dictionary(uniqueKeysWithValues: result.definitions.map { ($0.name, $0) })
    }()

    /// The names, sorted.
    package static var names: [String] { definitions.keys.sorted() }

    static let yaml = """
    enums:
      - name: WorkoutGoalUnitType
        cases: [unknown, inch, meter, foot, mile, yard, second, minute, hour, joule, kiloCalorie]
      - name: WorkoutLocationType
        cases: [unknown, outdoor, indoor]
      - name: OutgoingMessageType
        displayName: Message type
        cases:
          - unknown
          - {name: outgoingMessageText, displayName: Text}
          - {name: outgoingMessageAudio, displayName: Audio}
      - name: PersonHandleType
        cases: [unknown, emailAddress, phoneNumber]
      - name: PhotoAttribute
        cases: [photo, video, gif, flash, landscapeOrientation, portraitOrientation, favorite, selfie, frontFacingCamera, screenshot, burstPhoto, hdrPhoto, squarePhoto, panoramaPhoto, timeLapseVideo, slowMotionVideo, noirFilter, chromeFilter, instantFilter, monoFilter, fadeFilter, tonalFilter, transferFilter, processFilter, portraitPhoto, livePhoto, loopPhoto, bouncePhoto, longExposurePhoto]
    types:
      - name: Person
        displayName: Person
        properties:
          - {name: displayName, type: String}
          - {name: handle, type: String}
          - {name: handleType, type: PersonHandleType}
      - name: PaymentMethod
        displayName: Payment method
        properties:
          - {name: name, type: String}
          - {name: identificationHint, type: String}
      - name: Placemark
        displayName: Place
        properties:
          - {name: name, type: String}
          - {name: latitude, type: Decimal}
          - {name: longitude, type: Decimal}

    intents:
      - name: INSendMessageIntent
        title: Send Message
        description: Sends a message to one or more recipients.
        category: send
        examplePhrases: ["Send a message to ${recipients}", "Send a message to ${recipients} saying ${content}",
                         "Tell ${recipients} that ${content}"]
        parameters:
          - name: recipients
            displayName: Recipients
            type: Person
            multiple: true
            required: true
            prompts:
              primary: Who do you want to send it to?
              confirmation: Send it to ${value}?
              disambiguationIntroduction: There are ${count} people matching ‘${value}’.
              disambiguationSelection: Which one?
          - name: content
            displayName: Message
            type: String
            required: true
            prompts:
              primary: What do you want to say?
              confirmation: Send ‘${value}’?
          - name: speakableGroupName
            displayName: Group
            type: String
          - name: outgoingMessageType
            displayName: Message type
            type: OutgoingMessageType
          - name: serviceName
            displayName: Service
            type: String
        response:
          genericCodes: false
          parameters:
            - {name: recipientName, displayName: Recipient, type: String}
            - {name: messageIdentifier, displayName: Message ID, type: String}
          codes:
            - {name: unspecified, value: 0, success: false, formatString: "Something went wrong."}
            - {name: ready, value: 1, success: true, formatString: "Ready to send."}
            - {name: inProgress, value: 2, success: true, formatString: "Sending…"}
            - {name: success, value: 3, success: true, formatString: "Sent to ${recipientName}.", conciseFormatString: "Sent."}
            - {name: failure, value: 4, success: false, formatString: "Sorry, the message could not be sent."}
            - {name: failureRequiringAppLaunch, value: 5, success: false, formatString: "Please open the app to send it."}
            - {name: failureMessageServiceNotAvailable, value: 6, success: false, formatString: "The messaging service is not available right now."}
            - {name: failureRequiringInAppAuthentication, value: 7, success: false, formatString: "Please sign in to the app first."}

      - name: INStartWorkoutIntent
        title: Start Workout
        description: Starts a workout.
        category: start
        examplePhrases: ["Start a ${workoutName} workout", "Start a workout called ${workoutName}"]
        parameters:
          - name: workoutName
            displayName: Workout
            type: String
            required: true
            prompts:
              primary: Which workout?
              disambiguationIntroduction: There are ${count} workouts matching ‘${value}’.
              disambiguationSelection: Which one?
          - name: goalValue
            displayName: Goal
            type: Decimal
            minimum: 0
          - name: workoutGoalUnitType
            displayName: Goal unit
            type: WorkoutGoalUnitType
          - name: workoutLocationType
            displayName: Location
            type: WorkoutLocationType
          - name: isOpenEnded
            displayName: Open ended
            type: Boolean
        response:
          genericCodes: false
          codes:
            - {name: unspecified, value: 0, success: false, formatString: "Something went wrong."}
            - {name: ready, value: 1, success: true, formatString: "Ready to start."}
            - {name: continueInApp, value: 2, success: true, formatString: "Continue in the app."}
            - {name: failure, value: 3, success: false, formatString: "Sorry, the workout could not start."}
            - {name: failureRequiringAppLaunch, value: 4, success: false, formatString: "Please open the app to start it."}
            - {name: failureOngoingWorkout, value: 5, success: false, formatString: "A workout is already running."}
            - {name: failureNoMatchingWorkout, value: 6, success: false, formatString: "There is no such workout."}
            - {name: success, value: 7, success: true, formatString: "Workout started."}
            - {name: handleInApp, value: 8, success: true, formatString: "Starting it in the app."}

      - name: INSearchForPhotosIntent
        title: Search for Photos
        description: Finds photos by date, place, album or people.
        category: search
        examplePhrases: ["Show my photos from ${locationCreated}", "Find photos of ${peopleInPhoto}"]
        parameters:
          - {name: dateCreated, displayName: Date, type: Date}
          - {name: locationCreated, displayName: Place, type: Placemark}
          - {name: albumName, displayName: Album, type: String}
          - {name: searchTerms, displayName: Search terms, type: String, multiple: true}
          - {name: includedAttributes, displayName: With, type: PhotoAttribute, multiple: true}
          - {name: excludedAttributes, displayName: Without, type: PhotoAttribute, multiple: true}
          - {name: peopleInPhoto, displayName: People, type: Person, multiple: true}
        response:
          genericCodes: false
          parameters:
            - {name: searchResultsCount, displayName: Results, type: Integer}
          codes:
            - {name: unspecified, value: 0, success: false, formatString: "Something went wrong."}
            - {name: ready, value: 1, success: true, formatString: "Ready to search."}
            - {name: continueInApp, value: 2, success: true, formatString: "Found ${searchResultsCount} photos.", conciseFormatString: "${searchResultsCount} photos."}
            - {name: failure, value: 3, success: false, formatString: "Sorry, the search failed."}
            - {name: failureRequiringAppLaunch, value: 4, success: false, formatString: "Please open the app to search."}
            - {name: failureAppConfigurationRequired, value: 5, success: false, formatString: "The app needs to be set up first."}

      - name: INRequestRideIntent
        title: Request Ride
        description: Books a ride from a pickup place to a destination.
        category: request
        examplePhrases: ["Get me a ride to ${dropOffLocation}", "Book a car for ${partySize} people"]
        parameters:
          - name: pickupLocation
            displayName: Pickup
            type: Placemark
            required: true
            prompts:
              primary: Where should the ride pick you up?
          - name: dropOffLocation
            displayName: Destination
            type: Placemark
            required: true
            prompts:
              primary: Where do you want to go?
              confirmation: Go to ${value}?
          - {name: rideOptionName, displayName: Ride option, type: String}
          - {name: partySize, displayName: Party size, type: Integer, minimum: 1, maximum: 8}
          - {name: paymentMethod, displayName: Payment method, type: PaymentMethod}
          - {name: scheduledPickupTime, displayName: Pickup time, type: Date}
        response:
          genericCodes: false
          parameters:
            - {name: rideIdentifier, displayName: Ride, type: String}
            - {name: estimatedPickupTime, displayName: Pickup time, type: String}
          codes:
            - {name: unspecified, value: 0, success: false, formatString: "Something went wrong."}
            - {name: ready, value: 1, success: true, formatString: "Ready to book."}
            - {name: inProgress, value: 2, success: true, formatString: "Booking your ride…"}
            - {name: success, value: 3, success: true, formatString: "Your ride is booked; pickup at ${estimatedPickupTime}.", conciseFormatString: "Booked."}
            - {name: failure, value: 4, success: false, formatString: "Sorry, no ride could be booked."}
            - {name: failureRequiringAppLaunch, value: 5, success: false, formatString: "Please open the app to book."}
            - {name: failureRequiringAppLaunchMustVerifyCredentials, value: 6, success: false, formatString: "Please sign in to the app first."}
            - {name: failureRequiringAppLaunchNoServiceInArea, value: 7, success: false, formatString: "There is no service in this area."}
            - {name: failureRequiringAppLaunchServiceTemporarilyUnavailable, value: 8, success: false, formatString: "The service is unavailable right now."}
            - {name: failureRequiringAppLaunchPreviousRideNeedsCompletion, value: 9, success: false, formatString: "Your previous ride is not finished yet."}
            - {name: failureRequiringAppLaunchRideScheduledTooFar, value: 10, success: false, formatString: "That pickup time is too far ahead."}
    """
}
