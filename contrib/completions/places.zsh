#compdef places

__places_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__places_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __places_complete "${completions[@]:0:-1}"
    fi
}

__places_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_places() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'init:Create your identity (a keypair) and profile, and log in.'
            'login:Unlock your identity in the daemon so it signs and syncs again.'
            'logout:Wipe your key from the daemon'\''s memory.'
            'whoami:Show your id (the one friends add), name and username.'
            'status:Show the daemon'\''s state: version, identity, login, data dir.'
            'discover:Find a city, region, country or continent (or one of your or your contacts'\'' places).'
            'place:Add, list, show, edit, remove, import and export places in your library.'
            'favorite:Heart places and keep them in your own order.'
            'itinerary:Create, show, edit and delete itineraries and their places to go.'
            'item:Add, list, show, edit, move and remove an itinerary'\''s items.'
            'checklist:The shared packing and to-do list of an itinerary.'
            'expense:Add and list a trip'\''s shared expenses; see balances and how to settle up.'
            'traveller:List, add, rename and remove the travellers who share a trip'\''s expenses.'
            'activity:Show who changed what in an itinerary, newest first.'
            'events:Follow the daemon'\''s events (edits, logins, sync) until interrupted.'
            'route:Plan the best order through an itinerary'\''s places to go.'
            'peers:Daemons this one syncs with: who, where, and how far in sync.'
            'invitations:Itineraries people you have not accepted before want to share with you.'
            'contacts:People whose shares arrive directly, without an invitation.'
            'share:Make a share link for an itinerary (viewer or editor).'
            'join:Join an itinerary from a share link.'
            'members:List an itinerary'\''s members, how each joined, and its share links.'
            'unshare:Remove a member or revoke a share link (owner only).'
            'friends:Your friends: add, accept, list, show and remove them.'
            'groups:Groups of your friends to post to: list, create, rename, add, remove, delete.'
            'post:Post an update (text, a place, photos) to your friends, a group or only you; like and comment.'
            'feed:Your posts and those of friends you are in the audience of, newest first.'
            'notifications:Likes and comments on your posts, friend requests, invitations; mark them read.'
            'profile:Show or change your profile: name, username, bio and picture.'
            'photo:Add a photo (for a post or your picture) or save one the daemon holds.'
            'explore:Explore trips your friends and others published: search, show, route, like and save them.'
            'saved:List the published trips you saved (`places explore save ID`).'
            'gui:Open Places in your browser: serve the app on this machine until stopped.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        init|login|logout|whoami|status|discover|place|favorite|itinerary|item|checklist|expense|traveller|activity|events|route|peers|invitations|contacts|share|join|members|unshare|friends|groups|post|feed|notifications|profile|photo|explore|saved|gui|help)
            "_places_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_init() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--name[Your display name.]:name:'
        '--username[Your username (what friends see next to your id).]:username:'
        '--bio[A short bio.]:bio:'
        '--passphrase-file[Read the passphrase from the first line of this file.]:file:'
        '--no-passphrase[Store the key unsealed (headless devices).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_login() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--passphrase-file[Read the passphrase from the first line of this file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_logout() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_whoami() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_discover() {
    local -i ret=1
    local -ar ___sort=('desc' 'asc' 'off')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':query:'
        '--kind[Only this kind\: city, region, country, continent or place.]:kind:'
        '--near[Nearer first among equal matches, e.g. --near 39.8,-89.6.]:lat,lon:'
        '--limit[At most this many results, 1 to 100 (default 20).]:n:'
        '--sort[Sort by popularity from now on\: desc, asc or off (kept).]:order:{__places_complete "${___sort[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add a place to your library: by name, from a discover result, or at coordinates.'
            'list:List the places in your library.'
            'show:Show every field of a place.'
            'edit:Change some fields of a place.'
            'remove:Remove a place from your library.'
            'import:Import saved places from a GeoJSON, KML or GPX file into your library.'
            'export:Export your library as GeoJSON, KML or GPX.'
            'photo:Add or remove a photo of a place in your library.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|show|edit|remove|import|export|photo)
            "_places_place_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_place_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':name:'
        '--from-post[Copy the place a post names (a post id or its start).]:post:'
        '--from-friend[Copy one of the places this friend shares (NAME is that place).]:id:'
        '--lat[Latitude in decimal degrees (-90 to 90).]:lat:'
        '--lon[Longitude in decimal degrees (-180 to 180).]:lon:'
        '--in[Look for NAME in or near this city (or region, country).]:city:'
        '--address[Street address.]:address:'
        '*--category[A category (repeat for several), e.g. food, museum.]:category:'
        '--price[Price level from 1 (cheap) to 4 (expensive).]:1-4:'
        '--rating[Your rating from 0 to 5 (decimals allowed).]:0-5:'
        '--notes[Free-form notes.]:notes:'
        '--url[A web page for the place.]:url:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_edit() {
    local -i ret=1
    local -ar ___clear=('address' 'categories' 'price' 'rating' 'notes' 'url')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--name[New name.]:name:'
        '--lat[New latitude in decimal degrees.]:lat:'
        '--lon[New longitude in decimal degrees.]:lon:'
        '--address[Street address.]:address:'
        '*--category[A category (repeat for several), e.g. food, museum.]:category:'
        '--price[Price level from 1 (cheap) to 4 (expensive).]:1-4:'
        '--rating[Your rating from 0 to 5 (decimals allowed).]:0-5:'
        '--notes[Free-form notes.]:notes:'
        '--url[A web page for the place.]:url:'
        '*--clear[Clear this field (repeatable).]:field:{__places_complete "${___clear[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_import() {
    local -i ret=1
    local -ar ___format=('geojson' 'kml' 'gpx')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':file:'
        '--format[geojson, kml or gpx (default\: from the file'\''s extension).]:format:{__places_complete "${___format[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_export() {
    local -i ret=1
    local -ar ___format=('geojson' 'kml' 'gpx')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--format[geojson, kml or gpx.]:format:{__places_complete "${___format[@]}"}'
        '(-o --output)'{-o,--output}'[Write to this file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_photo() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add a photo (its location data removed unless --keep-location) to a place.'
            'remove:Remove a photo from a place.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|remove)
            "_places_place_photo_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_place_photo_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':place:'
        ':file:'
        '--keep-location[Keep the photo'\''s EXIF location.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_photo_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':place:'
        ':photo:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Heart a place (at the end, or at --position).'
            'list:List your favorites in order, with their count.'
            'move:Move a favorite to another position.'
            'remove:Un-heart a place (the place stays in your library).'
            'share:Share your favorites with your contacts (on, off), or show what you share.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|move|remove|share)
            "_places_favorite_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_favorite_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':place:'
        '--position[1-based position in your favorites (default\: last).]:position:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':favorite:'
        '--to[The new 1-based position.]:to:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':favorite:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_share() {
    local -i ret=1
    local -ar _state=('on' 'off')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':state:{__places_complete "${_state[@]}"}'
        '--only[Share only these favorites (name or id; repeatable).]:favorite:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Create an itinerary, or copy one (--from) to new dates.'
            'list:List itineraries: yours and those shared with you.'
            'show:Show an itinerary: every field, places to go in order, costs; or one day (--day).'
            'days:The trip day by day: where you sleep, transport, food, activities and places.'
            'check:Check the trip for problems and say what to fix.'
            'export:Export the trip as a calendar (ics) or a map of its day routes (geojson).'
            'edit:Change some fields of an itinerary.'
            'delete:Delete an itinerary.'
            'add-place:Add a place from your library to an itinerary'\''s places to go.'
            'remove-place:Remove a place to go from an itinerary.'
            'move-place:Move a place to go to another position.'
            'share:Share an itinerary with a friend by their id (owner only).'
            'members:List an itinerary'\''s members, how each joined, and its share links.'
            'rates:Show or change the trip'\''s exchange rates to its settlement currency.'
            'publish:Publish a trip for others to explore: to your friends, a group, or the whole network.'
            'unpublish:Withdraw a published trip: it leaves explore for everyone.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|list|show|days|check|export|edit|delete|add-place|remove-place|move-place|share|members|rates|publish|unpublish)
            "_places_itinerary_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_itinerary_create() {
    local -i ret=1
    local -ar ___travel_mode=('walking' 'cycling' 'driving')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':name:'
        '--from[Copy this published trip or itinerary of yours (its id, the start of it, or its name); needs --start.]:trip:'
        '--start[First day of the trip.]:YYYY-MM-DD:'
        '--end[Last day of the trip.]:YYYY-MM-DD:'
        '--transport[How you get there, e.g. "train".]:text:'
        '--lodging-name[Where you stay.]:lodging-name:'
        '--lodging-address[The lodging'\''s address.]:lodging-address:'
        '--check-in[Lodging check-in day.]:YYYY-MM-DD:'
        '--check-out[Lodging check-out day.]:YYYY-MM-DD:'
        '--travel-price[Travel price, e.g. 120.50 (exact, in --currency).]:decimal:'
        '--lodging-price[Lodging price, e.g. 340 (exact, in --currency).]:decimal:'
        '--currency[ISO 4217 currency of --travel-price and --lodging-price.]:currency:'
        '--notes[Free-form notes.]:notes:'
        '--tz[The trip'\''s IANA time zone, the default of its items'\'' times.]:zone:'
        '--travel-mode[How you get around on day routes\: walking, cycling or driving.]:travel-mode:{__places_complete "${___travel_mode[@]}"}'
        '*--place[A library place (id or name) to go to (repeat, in order).]:place:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--mine[Only itineraries you own.]'
        '--shared[Only itineraries others shared with you.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--day[Only this day\: its number (1 = first) or its date.]:N|YYYY-MM-DD:'
        '--plain[Words instead of emoji symbols for item types.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_days() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--plain[Words instead of emoji symbols for item types.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_check() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--plain[Words instead of emoji symbols for item types.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_export() {
    local -i ret=1
    local -ar ___format=('ics' 'geojson')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--format[ics or geojson.]:format:{__places_complete "${___format[@]}"}'
        '(-o --output)'{-o,--output}'[Write to this file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_edit() {
    local -i ret=1
    local -ar ___travel_mode=('walking' 'cycling' 'driving')
    local -ar ___clear=('start' 'end' 'transport' 'lodging' 'lodging-name' 'lodging-address' 'check-in' 'check-out' 'travel-price' 'lodging-price' 'notes' 'tz' 'travel-mode')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--name[New name.]:name:'
        '--start[First day of the trip.]:YYYY-MM-DD:'
        '--end[Last day of the trip.]:YYYY-MM-DD:'
        '--transport[How you get there, e.g. "train".]:text:'
        '--lodging-name[Where you stay.]:lodging-name:'
        '--lodging-address[The lodging'\''s address.]:lodging-address:'
        '--check-in[Lodging check-in day.]:YYYY-MM-DD:'
        '--check-out[Lodging check-out day.]:YYYY-MM-DD:'
        '--travel-price[Travel price, e.g. 120.50 (exact, in --currency).]:decimal:'
        '--lodging-price[Lodging price, e.g. 340 (exact, in --currency).]:decimal:'
        '--currency[ISO 4217 currency of --travel-price and --lodging-price.]:currency:'
        '--notes[Free-form notes.]:notes:'
        '--tz[The trip'\''s IANA time zone, the default of its items'\'' times.]:zone:'
        '--travel-mode[How you get around on day routes\: walking, cycling or driving.]:travel-mode:{__places_complete "${___travel_mode[@]}"}'
        '*--clear[Clear this field (repeatable).]:field:{__places_complete "${___clear[@]}"}'
        '--settlement-currency[The currency expenses are settled in (ISO 4217).]:code:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_add-place() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':place:'
        '--position[1-based position among the places to go (default\: last).]:position:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_remove-place() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':stop:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_move-place() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':stop:'
        '--to[The new 1-based position.]:to:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_share() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--with[The friend'\''s public id.]:with:'
        '--role[editor or viewer.]:role:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_members() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_rates() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '*--set[Set a rate (repeatable)\: 1 CODE = RATE settlement units.]:CODE=RATE:'
        '*--remove[Remove a currency'\''s rate (repeatable).]:CODE:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_publish() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--to[Who can explore it\: friends, network, or one of your groups (its name or id).]:audience:'
        '--dry-run[Print what would be published, and publish nothing.]'
        '--plain[Words instead of emoji symbols for item types.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_unpublish() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_item() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add an item to an itinerary.'
            'list:List an itinerary'\''s items, by start (undated last).'
            'show:Show every field of an item.'
            'edit:Change some fields of an item.'
            'remove:Remove an item.'
            'move:Move an item (or a place to go) to another day and/or position in its day.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|show|edit|remove|move)
            "_places_item_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_item_add() {
    local -i ret=1
    local -ar _type=('lodging' 'transport' 'food' 'activity')
    local -ar ___mode=('flight' 'train' 'bus' 'car' 'ferry' 'other')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':type:{__places_complete "${_type[@]}"}'
        ':title:'
        '--start[Start (lodging\: check-in), local\: 2027-05-03 or 2027-05-03T09\:10.]:when:'
        '--end[End (lodging\: check-out; transport\: arrival), local.]:when:'
        '--tz[IANA time zone of --start, e.g. Europe/Lisbon.]:zone:'
        '--end-tz[Transport\: time zone of the arrival.]:zone:'
        '--at[Where (transport\: from where)\: a name.]:name:'
        '--address[Street address of --at.]:address:'
        '--lat[Latitude of --at in decimal degrees.]:lat:'
        '--lon[Longitude of --at in decimal degrees.]:lon:'
        '--to[Transport\: where it arrives, a name.]:name:'
        '--to-address[Transport\: address of --to.]:to-address:'
        '--to-lat[Transport\: latitude of --to.]:to-lat:'
        '--to-lon[Transport\: longitude of --to.]:to-lon:'
        '--price[Price with its currency, exact\: "12.50 EUR".]:amount:'
        '--notes[Free-form notes.]:notes:'
        '--url[A web page (booking, menu, tickets).]:url:'
        '--code[Lodging\: confirmation code.]:code:'
        '--contact[Lodging\: how to reach the host.]:contact:'
        '--mode[Transport\: flight, train, bus, car, ferry or other (default other).]:mode:{__places_complete "${___mode[@]}"}'
        '--carrier[Transport\: the company ("TAP", "CP").]:carrier:'
        '--number[Transport\: flight or train number.]:number:'
        '--booking[Transport\: booking reference.]:reference:'
        '--recommendation[Food\: what to order or why go.]:recommendation:'
        '--rating[Food\: your rating from 0 to 5.]:0-5:'
        '--description[Activity\: what it is.]:description:'
        '--booked[Activity\: whether it is booked.]'
        '--no-booked[Activity\: whether it is booked.]'
        '--link[Activity\: the item or place to go it belongs to.]:item:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_item_list() {
    local -i ret=1
    local -ar ___type=('lodging' 'transport' 'food' 'activity')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--type[Only items of this type\: lodging, transport, food or activity.]:type:{__places_complete "${___type[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_item_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_item_edit() {
    local -i ret=1
    local -ar ___mode=('flight' 'train' 'bus' 'car' 'ferry' 'other')
    local -ar ___clear=('start' 'end' 'tz' 'end-tz' 'location' 'at' 'address' 'coordinates' 'to' 'to-address' 'to-coordinates' 'price' 'notes' 'url' 'code' 'contact' 'carrier' 'number' 'booking' 'recommendation' 'rating' 'description' 'link')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--title[New title.]:title:'
        '--start[Start (lodging\: check-in), local\: 2027-05-03 or 2027-05-03T09\:10.]:when:'
        '--end[End (lodging\: check-out; transport\: arrival), local.]:when:'
        '--tz[IANA time zone of --start, e.g. Europe/Lisbon.]:zone:'
        '--end-tz[Transport\: time zone of the arrival.]:zone:'
        '--at[Where (transport\: from where)\: a name.]:name:'
        '--address[Street address of --at.]:address:'
        '--lat[Latitude of --at in decimal degrees.]:lat:'
        '--lon[Longitude of --at in decimal degrees.]:lon:'
        '--to[Transport\: where it arrives, a name.]:name:'
        '--to-address[Transport\: address of --to.]:to-address:'
        '--to-lat[Transport\: latitude of --to.]:to-lat:'
        '--to-lon[Transport\: longitude of --to.]:to-lon:'
        '--price[Price with its currency, exact\: "12.50 EUR".]:amount:'
        '--notes[Free-form notes.]:notes:'
        '--url[A web page (booking, menu, tickets).]:url:'
        '--code[Lodging\: confirmation code.]:code:'
        '--contact[Lodging\: how to reach the host.]:contact:'
        '--mode[Transport\: flight, train, bus, car, ferry or other (default other).]:mode:{__places_complete "${___mode[@]}"}'
        '--carrier[Transport\: the company ("TAP", "CP").]:carrier:'
        '--number[Transport\: flight or train number.]:number:'
        '--booking[Transport\: booking reference.]:reference:'
        '--recommendation[Food\: what to order or why go.]:recommendation:'
        '--rating[Food\: your rating from 0 to 5.]:0-5:'
        '--description[Activity\: what it is.]:description:'
        '--booked[Activity\: whether it is booked.]'
        '--no-booked[Activity\: whether it is booked.]'
        '--link[Activity\: the item or place to go it belongs to.]:item:'
        '*--clear[Clear this field (repeatable).]:field:{__places_complete "${___clear[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_item_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_item_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--day[The day\: its number or its date.]:N|YYYY-MM-DD:'
        '--position[1-based position among the day'\''s items.]:position:'
        '--plain[Words instead of emoji symbols for item types.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:Show the checklist.'
            'add:Add an entry to the checklist.'
            'check:Tick an entry off.'
            'uncheck:Untick an entry.'
            'assign:Assign an entry to a member, or to nobody with --none.'
            'move:Move an entry to another position.'
            'remove:Remove an entry.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add|check|uncheck|assign|move|remove)
            "_places_checklist_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_checklist_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':text:'
        '--list[The list it belongs to, e.g. "Packing".]:name:'
        '--assign[The member who takes care of it (their public id).]:member:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist_check() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist_uncheck() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist_assign() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        ':member:'
        '--none[Assign it to nobody.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--to[The new 1-based position.]:to:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_checklist_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':item:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add an expense.'
            'list:List the expenses, newest first.'
            'show:Show an expense and each traveller'\''s share.'
            'edit:Change some fields of an expense.'
            'remove:Delete an expense or payment.'
            'balances:Each traveller'\''s total paid, share and balance in the settlement currency.'
            'settle:Suggest the fewest payments that settle every balance.'
            'debts:Who owes whom, pair by pair, without simplification (to check by hand).'
            'pay:Record a payment between travellers (Bruno paid Ana 41.20 EUR).'
            'export:Write the expenses (or, with --balances, the balances) as CSV.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|show|edit|remove|balances|settle|debts|pay|export)
            "_places_expense_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_expense_add() {
    local -i ret=1
    local -ar ___split=('equal' 'shares' 'exact' 'percent')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':title:'
        ':amount:'
        ':currency:'
        '*--paid-by[Who paid (default\: me); several with their amounts\: ana\:50,bruno\:34.50 (one may omit it\: the rest).]:name\[\:amount\],…:'
        '--split[How it is shared\: equal (default), shares, exact or percent.]:split:{__places_complete "${___split[@]}"}'
        '*--among[Who shares it (equal\: default everyone)\: ana,bruno; shares\: ana\:2,bruno; exact\: ana\:30,bruno\:54.50; percent\: ana\:50,bruno\:50.]:name\[\:n\],…:'
        '--date[The day it was spent (default\: today).]:YYYY-MM-DD:'
        '--category[A category such as food, lodging or transport (free text).]:category:'
        '--item[The item of the trip it pays for.]:item:'
        '--rate[Exchange rate to the settlement currency\: 1 CURRENCY = R (default\: the trip'\''s rate table).]:R:'
        '--transfer[A payment between travellers\: --paid-by gives, --among (one) receives.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_list() {
    local -i ret=1
    local -ar ___kind=('expense' 'transfer')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--kind[Only expenses or only transfers (payments between travellers).]:kind:{__places_complete "${___kind[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':expense:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_edit() {
    local -i ret=1
    local -ar ___split=('equal' 'shares' 'exact' 'percent')
    local -ar ___clear=('category' 'item' 'rate')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':expense:'
        '--title[New title.]:title:'
        '--amount[New amount, in --currency or the expense'\''s currency.]:amount:'
        '--currency[New currency (ISO 4217).]:currency:'
        '*--paid-by[Who paid (default\: me); several with their amounts\: ana\:50,bruno\:34.50 (one may omit it\: the rest).]:name\[\:amount\],…:'
        '--split[How it is shared\: equal (default), shares, exact or percent.]:split:{__places_complete "${___split[@]}"}'
        '*--among[Who shares it (equal\: default everyone)\: ana,bruno; shares\: ana\:2,bruno; exact\: ana\:30,bruno\:54.50; percent\: ana\:50,bruno\:50.]:name\[\:n\],…:'
        '--date[The day it was spent (default\: today).]:YYYY-MM-DD:'
        '--category[A category such as food, lodging or transport (free text).]:category:'
        '--item[The item of the trip it pays for.]:item:'
        '--rate[Exchange rate to the settlement currency\: 1 CURRENCY = R (default\: the trip'\''s rate table).]:R:'
        '*--clear[Clear this field (repeatable).]:field:{__places_complete "${___clear[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':expense:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_balances() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--by-category[Also show each traveller'\''s spending by category.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_settle() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_debts() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_pay() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':amount:'
        ':currency:'
        '--from[Who paid (default\: me).]:name:'
        '--to[Who received it.]:name:'
        '--title[A title (default\: "Bruno paid Ana").]:title:'
        '--date[The day it was spent (default\: today).]:YYYY-MM-DD:'
        '--category[A category such as food, lodging or transport (free text).]:category:'
        '--item[The item of the trip it pays for.]:item:'
        '--rate[Exchange rate to the settlement currency\: 1 CURRENCY = R (default\: the trip'\''s rate table).]:R:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_expense_export() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--balances[The balances instead of the expenses.]'
        '(-o --output)'{-o,--output}'[Write to this file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_traveller() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List the travellers.'
            'add:Add a traveller without a device, by name.'
            'rename:Rename a named traveller (a member'\''s name is their own).'
            'remove:Remove a named traveller who appears in no expense.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add|rename|remove)
            "_places_traveller_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_traveller_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_traveller_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_traveller_rename() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':traveller:'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_traveller_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':traveller:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_activity() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_events() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_route() {
    local -i ret=1
    local -ar ___mode=('walking' 'cycling' 'driving')
    local -ar ___by=('duration' 'distance')
    local -ar ___format=('json' 'geojson' 'gpx' 'gmaps' 'svg')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--mode[How you travel\: walking, cycling or driving (default\: the itinerary'\''s travel mode, else walking).]:mode:{__places_complete "${___mode[@]}"}'
        '--day[Only one day\: its number, its date, or `all` (with --format geojson) for every day.]:N|YYYY-MM-DD|all:'
        '--by[What to minimise\: duration or distance.]:criterion:{__places_complete "${___by[@]}"}'
        '--round-trip[Come back to the first stop at the end.]'
        '--start[Start at this stop (stop id or place id).]:stop:'
        '--end[End at this stop (stop id or place id).]:stop:'
        '--format[json (printed as a table unless --json), geojson, gpx, gmaps or svg.]:format:{__places_complete "${___format[@]}"}'
        '--output[Write the result to this file instead of standard output.]:file:'
        '--apply[Reorder the itinerary'\''s places to go to the planned order.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_peers() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List known peers.'
            'add:Add a static peer address, for networks where discovery cannot work.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add)
            "_places_peers_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_peers_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_peers_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':address:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_invitations() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List pending invitations.'
            'accept:Accept an invitation: the itinerary syncs, and its owner becomes a contact.'
            'decline:Decline an invitation; it is not asked again.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|accept|decline)
            "_places_invitations_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_invitations_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_invitations_accept() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_invitations_decline() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_contacts() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List contacts.'
            'show:Show a contact'\''s profile (name, username, bio) and the favorites they share with you.'
            'add:Accept shares from this person from now on.'
            'remove:Stop accepting shares directly from this person (they arrive as invitations again).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|show|add|remove)
            "_places_contacts_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_contacts_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_contacts_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_contacts_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--name[A name to show for them.]:name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_contacts_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_share() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--role[viewer or editor.]:role:'
        '--expires[When the link stops working\: 30m, 12h, 7d, 2w, a date (YYYY-MM-DD) or an RFC 3339 time.]:expires:'
        '--uses[How many people may join with it.]:uses:'
        '--for[Only this person'\''s id may join with it.]:for:'
        '--with[Add this person (their id from `places whoami`) instead of making a link.]:with:'
        '--qr[Also draw the link as a QR code in the terminal.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_join() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':link:'
        '--wait[Seconds to look for a member'\''s device (1-120).]:wait:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_members() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_unshare() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--member[The member'\''s id.]:member:'
        '--link[The link id (see `places members`).]:link:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List friends, the requests you sent, and the requests waiting for you.'
            'show:Show a friend'\''s profile, their posts you can see, the places they share and their trips.'
            'map:List the places a friend shares with you (also as GeoJSON).'
            'add:Send a friend request (or accept theirs, if they asked first).'
            'link:Print a friend link (and a QR code) for adding someone in person.'
            'accept:Accept a friend request: you become friends (and contacts).'
            'decline:Decline a friend request; it is not asked again.'
            'remove:End a friendship (or withdraw a request), on both sides from now on.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|show|map|add|link|accept|decline|remove)
            "_places_friends_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_friends_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_map() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--category[Only places of this category (to eat, to drink, …).]:category:'
        '--geojson[Print GeoJSON (a FeatureCollection) instead of a table.]'
        '(-o --output)'{-o,--output}'[Write to this file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_link() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--hours[How many hours the link works (1–720).]:hours:'
        '--no-qr[Print the link only, no QR code.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_accept() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_decline() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_friends_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_groups() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List your groups and who is in each.'
            'create:Create a group of friends.'
            'rename:Rename a group.'
            'add:Add friends to a group.'
            'remove:Remove people from a group (posts already made to it keep their audience).'
            'delete:Delete a group (posts already made to it keep their audience).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|create|rename|add|remove|delete)
            "_places_groups_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_groups_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_groups_create() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':name:'
        '*--member[A friend to put in it (repeat for several).]:member:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_groups_rename() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':group:'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_groups_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':group:'
        '*:friends:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_groups_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':group:'
        '*:friends:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_groups_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':group:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'new:Write a post.'
            'show:Show a post, its photos and its comments.'
            'delete:Delete your post, for everyone it went to.'
            'like:Like a post.'
            'unlike:Take back your like.'
            'comments:List a post'\''s comments, oldest first.'
            'comment:Comment on a post (`places post comment POST TEXT`), or delete a comment.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        new|show|delete|like|unlike|comments|comment)
            "_places_post_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_post_new() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':text:'
        '--place[A library place (id or name) or a discover result id.]:place:'
        '--lat[Latitude of where you are, in decimal degrees (with --lon).]:lat:'
        '--lon[Longitude of where you are, in decimal degrees (with --lat).]:lon:'
        '*--photo[A photo to add (repeat for up to 10).]:file:'
        '--to[Who sees it\: friends, only-me or a group'\''s name or id.]:audience:'
        '--keep-location[Keep the photos'\'' location (GPS EXIF) instead of removing it.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_like() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_unlike() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_comments() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_comment() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Comment on a post (up to 2,000 characters); everyone in its audience sees it.'
            'delete:Delete a comment: your own, or any on your post.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|delete)
            "_places_post_comment_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_post_comment_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':post:'
        ':text:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_post_comment_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':post:'
        ':comment:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_feed() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--limit[Posts per page, 1 to 100 (default 20).]:n:'
        '--before[Start after this cursor (from the previous page).]:cursor:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_notifications() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List notifications, with the unread count.'
            'read:Mark notifications read (all of them without IDs).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|read)
            "_places_notifications_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_notifications_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--all[List read notifications too (the newest 100).]'
        '--read[Mark the listed notifications read.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_notifications_read() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '*:ids:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_profile() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'show:Show your profile.'
            'set:Change your name, username, bio or picture.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        show|set)
            "_places_profile_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_profile_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_profile_set() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--name[Your display name.]:name:'
        '--username[Your username (1–32 letters, digits, '\''.'\'', '\''_'\'' or '\''-'\'').]:username:'
        '--bio[A short bio.]:bio:'
        '--picture[A photo file for your picture.]:file:'
        '--keep-location[Keep the picture'\''s location (GPS EXIF) instead of removing it.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_photo() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add a photo; prints its id, type, size and dimensions.'
            'get:Save a photo the daemon holds to a file.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|get)
            "_places_photo_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_photo_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':file:'
        '--keep-location[Keep the photo'\''s location (GPS EXIF) instead of removing it.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_photo_get() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '(-o --output)'{-o,--output}'[Where to write it.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'search:List published trips you can see, optionally matching a query.'
            'show:Show a published trip: its days and items, places to go, costs and likes.'
            'route:Plan the best order through a published trip'\''s places to go (or one day).'
            'like:Like a published trip (its author and everyone who can see it see the count).'
            'unlike:Take your like of a published trip back.'
            'save:Save a published trip to your list (`places saved`); only you see it.'
            'unsave:Remove a trip from your saved trips.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        search|show|route|like|unlike|save|unsave)
            "_places_explore_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_explore_search() {
    local -i ret=1
    local -ar ___sort=('likes' 'newest')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':query:'
        '--country[Only trips through this country (ISO 3166 code, e.g. PT).]:code:'
        '--sort[likes (most liked first) or newest.]:sort:{__places_complete "${___sort[@]}"}'
        '--limit[How many trips, 1 to 100.]:n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--day[Only this day\: its number (1 = first) or its date.]:N|YYYY-MM-DD:'
        '--plain[Words instead of emoji symbols for item types.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore_route() {
    local -i ret=1
    local -ar ___mode=('walking' 'cycling' 'driving')
    local -ar ___by=('duration' 'distance')
    local -ar ___format=('json' 'geojson' 'gpx' 'gmaps' 'svg')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--day[Only one day\: its number, its date, or `all` (with --format geojson) for every day.]:N|YYYY-MM-DD|all:'
        '--mode[How you travel\: walking, cycling or driving (default\: the trip'\''s travel mode, else walking).]:mode:{__places_complete "${___mode[@]}"}'
        '--by[What to minimise\: duration or distance.]:criterion:{__places_complete "${___by[@]}"}'
        '--round-trip[Come back to the first stop at the end.]'
        '--format[json (printed as a table unless --json), geojson, gpx, gmaps or svg.]:format:{__places_complete "${___format[@]}"}'
        '--output[Write the result to this file instead of standard output.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore_like() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore_unlike() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore_save() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_explore_unsave() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_saved() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_gui() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--no-browser[Only print the address; do not open a browser.]'
        '--listen[The loopback address and port to serve on (default 127.0.0.1\:8385; port 0\: a free one).]:host\:port:'
        '--tiles[A tile server'\''s URL template for the street map, with {z}, {x} and {y} (default\: $PLACES_TILES).]:url-template:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _places ]]; then
    _places "${@}"
else
    compdef _places places
fi
