function __places_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __places_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __places_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __places_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __places_parse_tokens -S
    set -l unparsed_tokens (__places_tokens -pc)
    switch $unparsed_tokens[1]
    case 'places'
        __places_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'init'
            __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'name=' 'username=' 'bio=' 'passphrase-file=' 'no-passphrase' 'version' 'h/help'
        case 'login'
            __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'passphrase-file=' 'version' 'h/help'
        case 'logout'
            __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'version' 'h/help'
        case 'whoami'
            __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'version' 'h/help'
        case 'status'
            __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'version' 'h/help'
        case 'place'
            __places_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'lat=' 'lon=' 'address=' 'category=+' 'price=' 'rating=' 'notes=' 'url=' 'version' 'h/help'
            case 'list'
                __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            case 'show'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            case 'edit'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'name=' 'lat=' 'lon=' 'address=' 'category=+' 'price=' 'rating=' 'notes=' 'url=' 'clear=+' 'version' 'h/help'
            case 'remove'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            end
        case 'favorite'
            __places_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'position=' 'version' 'h/help'
            case 'list'
                __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            case 'move'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'to=' 'version' 'h/help'
            case 'remove'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            end
        case 'itinerary'
            __places_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'start=' 'end=' 'transport=' 'lodging-name=' 'lodging-address=' 'check-in=' 'check-out=' 'travel-price=' 'lodging-price=' 'currency=' 'notes=' 'place=+' 'version' 'h/help'
            case 'list'
                __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'mine' 'shared' 'version' 'h/help'
            case 'show'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            case 'edit'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'name=' 'start=' 'end=' 'transport=' 'lodging-name=' 'lodging-address=' 'check-in=' 'check-out=' 'travel-price=' 'lodging-price=' 'currency=' 'notes=' 'clear=+' 'version' 'h/help'
            case 'delete'
                __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            case 'add-place'
                __places_parse_subcommand 2 'data-dir=' 'socket=' 'json' 'position=' 'version' 'h/help'
            case 'remove-place'
                __places_parse_subcommand 2 'data-dir=' 'socket=' 'json' 'version' 'h/help'
            case 'move-place'
                __places_parse_subcommand 2 'data-dir=' 'socket=' 'json' 'to=' 'version' 'h/help'
            end
        case 'activity'
            __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'version' 'h/help'
        case 'events'
            __places_parse_subcommand 0 'data-dir=' 'socket=' 'json' 'version' 'h/help'
        case 'route'
            __places_parse_subcommand 1 'data-dir=' 'socket=' 'json' 'mode=' 'by=' 'round-trip' 'start=' 'end=' 'format=' 'output=' 'apply' 'version' 'h/help'
        case 'help'
            __places_parse_subcommand -r 1 'version'
        end
    end
end

function __places_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __places_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __places_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __places_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__places_tokens -p)
    if test -z "$(__places_tokens -t)"
        set -l index (count (__places_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'places' -f
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'init' -d 'Create your identity (a keypair) and profile, and log in.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'login' -d 'Unlock your identity in the daemon so it signs and syncs again.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'logout' -d 'Wipe your key from the daemon\'s memory.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'whoami' -d 'Show your id (the one friends add), name and username.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'status' -d 'Show the daemon\'s state: version, identity, login, data dir.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'place' -d 'Add, list, show, edit and remove places in your library.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'favorite' -d 'Heart places and keep them in your own order.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'itinerary' -d 'Create, show, edit and delete itineraries and their places to go.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'activity' -d 'Show who changed what in an itinerary, newest first.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'events' -d 'Follow the daemon\'s events (edits, logins, sync) until interrupted.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'route' -d 'Plan the best order through an itinerary\'s places to go.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" name' -l 'name' -d 'Your display name.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" username' -l 'username' -d 'Your username (what friends see next to your id).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" bio' -l 'bio' -d 'A short bio.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" no-passphrase' -l 'no-passphrase' -d 'Store the key unsealed (headless devices).'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places login" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places login" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places login" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places login" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places login" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places logout" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places logout" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places logout" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places logout" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places whoami" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places whoami" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places whoami" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places whoami" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places whoami" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places status" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places status" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places status" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places status" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places place" -eq 1' -fa 'add' -d 'Add a place to your library.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places place" -eq 1' -fa 'list' -d 'List the places in your library.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places place" -eq 1' -fa 'show' -d 'Show every field of a place.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places place" -eq 1' -fa 'edit' -d 'Change some fields of a place.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places place" -eq 1' -fa 'remove' -d 'Remove a place from your library.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" lat' -l 'lat' -d 'Latitude in decimal degrees (-90 to 90).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" lon' -l 'lon' -d 'Longitude in decimal degrees (-180 to 180).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" address' -l 'address' -d 'Street address.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add"' -l 'category' -d 'A category (repeat for several), e.g. food, museum.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" price' -l 'price' -d 'Price level from 1 (cheap) to 4 (expensive).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" rating' -l 'rating' -d 'Your rating from 0 to 5 (decimals allowed).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" notes' -l 'notes' -d 'Free-form notes.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" url' -l 'url' -d 'A web page for the place.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place list" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place list" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place list" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place list" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place show" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place show" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place show" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place show" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" name' -l 'name' -d 'New name.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" lat' -l 'lat' -d 'New latitude in decimal degrees.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" lon' -l 'lon' -d 'New longitude in decimal degrees.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" address' -l 'address' -d 'Street address.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit"' -l 'category' -d 'A category (repeat for several), e.g. food, museum.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" price' -l 'price' -d 'Price level from 1 (cheap) to 4 (expensive).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" rating' -l 'rating' -d 'Your rating from 0 to 5 (decimals allowed).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" notes' -l 'notes' -d 'Free-form notes.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" url' -l 'url' -d 'A web page for the place.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit"' -l 'clear' -d 'Clear this field (repeatable).' -rfka 'address categories price rating notes url'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place remove" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place remove" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place remove" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place remove" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places place remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places favorite" -eq 1' -fa 'add' -d 'Heart a place (at the end, or at --position).'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places favorite" -eq 1' -fa 'list' -d 'List your favorites in order, with their count.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places favorite" -eq 1' -fa 'move' -d 'Move a favorite to another position.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places favorite" -eq 1' -fa 'remove' -d 'Un-heart a place (the place stays in your library).'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite add" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite add" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite add" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite add" position' -l 'position' -d '1-based position in your favorites (default: last).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite add" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite list" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite list" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite list" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite list" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite move" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite move" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite move" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite move" to' -l 'to' -d 'The new 1-based position.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite move" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite move" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite remove" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite remove" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite remove" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite remove" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places favorite remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'create' -d 'Create an itinerary.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'list' -d 'List itineraries: yours and those shared with you.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'show' -d 'Show an itinerary: every field, places to go in order, total cost.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'edit' -d 'Change some fields of an itinerary.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'delete' -d 'Delete an itinerary.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'add-place' -d 'Add a place from your library to an itinerary\'s places to go.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'remove-place' -d 'Remove a place to go from an itinerary.'
complete -c 'places' -n '__places_should_offer_completions_for_positional "places itinerary" -eq 1' -fa 'move-place' -d 'Move a place to go to another position.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" start' -l 'start' -d 'First day of the trip.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" end' -l 'end' -d 'Last day of the trip.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" transport' -l 'transport' -d 'How you get there, e.g. "train".' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" lodging-name' -l 'lodging-name' -d 'Where you stay.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" lodging-address' -l 'lodging-address' -d 'The lodging\'s address.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" check-in' -l 'check-in' -d 'Lodging check-in day.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" check-out' -l 'check-out' -d 'Lodging check-out day.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" travel-price' -l 'travel-price' -d 'Travel price, e.g. 120.50 (exact, in --currency).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" lodging-price' -l 'lodging-price' -d 'Lodging price, e.g. 340 (exact, in --currency).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" currency' -l 'currency' -d 'ISO 4217 currency of --travel-price and --lodging-price.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" notes' -l 'notes' -d 'Free-form notes.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create"' -l 'place' -d 'A place id to go to (repeat, in order).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" mine' -l 'mine' -d 'Only itineraries you own.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" shared' -l 'shared' -d 'Only itineraries others shared with you.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary show" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary show" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary show" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary show" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" name' -l 'name' -d 'New name.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" start' -l 'start' -d 'First day of the trip.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" end' -l 'end' -d 'Last day of the trip.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" transport' -l 'transport' -d 'How you get there, e.g. "train".' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" lodging-name' -l 'lodging-name' -d 'Where you stay.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" lodging-address' -l 'lodging-address' -d 'The lodging\'s address.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" check-in' -l 'check-in' -d 'Lodging check-in day.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" check-out' -l 'check-out' -d 'Lodging check-out day.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" travel-price' -l 'travel-price' -d 'Travel price, e.g. 120.50 (exact, in --currency).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" lodging-price' -l 'lodging-price' -d 'Lodging price, e.g. 340 (exact, in --currency).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" currency' -l 'currency' -d 'ISO 4217 currency of --travel-price and --lodging-price.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" notes' -l 'notes' -d 'Free-form notes.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit"' -l 'clear' -d 'Clear this field (repeatable).' -rfka 'start end transport lodging lodging-name lodging-address check-in check-out travel-price lodging-price notes'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary delete" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary delete" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary delete" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary delete" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary add-place" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary add-place" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary add-place" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary add-place" position' -l 'position' -d '1-based position among the places to go (default: last).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary add-place" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary add-place" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary remove-place" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary remove-place" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary remove-place" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary remove-place" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary remove-place" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary move-place" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary move-place" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary move-place" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary move-place" to' -l 'to' -d 'The new 1-based position.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary move-place" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places itinerary move-place" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places activity" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places activity" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places activity" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places activity" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places activity" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places events" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places events" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places events" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places events" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places events" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" data-dir' -l 'data-dir' -d 'The daemon\'s data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" socket' -l 'socket' -d 'The control socket (default: <data-dir>/placesd.sock).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" json' -l 'json' -d 'Print the API\'s JSON body verbatim instead of human output.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" mode' -l 'mode' -d 'How you travel: walking, cycling or driving.' -rfka 'walking cycling driving'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" by' -l 'by' -d 'What to minimise: duration or distance.' -rfka 'duration distance'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" round-trip' -l 'round-trip' -d 'Come back to the first stop at the end.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" start' -l 'start' -d 'Start at this stop (stop id or place id).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" end' -l 'end' -d 'End at this stop (stop id or place id).' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" format' -l 'format' -d 'json (printed as a table unless --json), geojson, gpx, gmaps or svg.' -rfka 'json geojson gpx gmaps svg'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" output' -l 'output' -d 'Write the result to this file instead of standard output.' -rfka ''
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" apply' -l 'apply' -d 'Reorder the itinerary\'s places to go to the planned order.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" version' -l 'version' -d 'Show the version.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places route" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'places' -n '__places_should_offer_completions_for_flags_or_options "places help" version' -l 'version' -d 'Show the version.'
